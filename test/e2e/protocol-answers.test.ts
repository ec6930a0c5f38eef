import assert from "node:assert/strict";
import { clientEras, rpcErrorCode } from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";

/** JSON-RPC Invalid params: what both spec eras prescribe for an unknown tool name. */
const INVALID_PARAMS = -32602;

for (const era of clientEras) {
  describe(`protocol answers every MCP client expects, ${era} (issue #14)`, () => {
    const served = useServedClient(era);

    it("answers resources/templates/list with an empty list, since resources is declared", async () => {
      const { resourceTemplates } = await served.client.listResourceTemplates();
      assert.deepEqual(resourceTemplates, []);
    });

    it(
      "answers a tool name outside the contract with JSON-RPC -32602, not a tool result, and " +
        "logs it only as unknown (C14, L13)",
      async () => {
        const name = "no_such_tool_CANARY-91c2";
        const error = await served.client.callTool(name, {}).then(
          (result) => assert.fail(`a tool result: ${JSON.stringify(result)}`),
          (e: unknown) => e,
        );
        assert.equal(rpcErrorCode(error), INVALID_PARAMS, String(error));
        assert.match(String((error as Error).message), /Unknown tool: "no_such_tool_CANARY-91c2"/);
        const metrics = await served.fx.services.metrics.registry.metrics();
        assert.match(metrics, /toolName="unknown"[^\n]*resultCode="UNKNOWN_TOOL"/);
        assert.ok(!metrics.includes("CANARY-91c2"), "caller text in a metric label");
      },
    );
  });
}
