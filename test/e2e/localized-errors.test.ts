import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { errorTable } from "../../runtime/error-table.js";
import { errorCode, eras, type ToolResult } from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";

const german = `INVALID_INPUT: ${errorTable.INVALID_INPUT.de.message}`;
const english = `INVALID_INPUT: ${errorTable.INVALID_INPUT.en.message}`;
const text = (result: ToolResult) => String(result.content[0]?.text);

for (const era of eras) {
  describe(`INVALID_INPUT in the session's language, ${era} (C3, C5)`, () => {
    const served = useServedClient(era);

    it("answers in German when the refused arguments name a known de session", async () => {
      const sid = await served.fx.newSession(`de-invalid-${era}`, "de");
      const unknownField = await served.client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
        note: "extra",
      });
      assert.equal(errorCode(unknownField), "INVALID_INPUT");
      assert.ok(text(unknownField).startsWith(german), text(unknownField));
      const badDecision = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: 0,
        clientRequestId: randomUUID(),
        decision: "perhaps",
      });
      assert.ok(text(badDecision).startsWith(german), text(badDecision));
    });

    it(
      "stays English for an en session, a malformed id, an unknown session and " + "no id at all",
      async () => {
        const sid = await served.fx.newSession(`en-invalid-${era}`, "en");
        const cases: Record<string, unknown>[] = [
          { learningSessionId: sid, note: "extra" },
          { learningSessionId: "sps_short", note: "extra" },
          { learningSessionId: `sps_${"A".repeat(32)}`, note: "extra" },
          { note: "extra" },
        ];
        for (const args of cases) {
          const result = await served.client.callTool("get_skillpilot_learning_context", args);
          assert.equal(errorCode(result), "INVALID_INPUT");
          assert.ok(text(result).startsWith(english), `${JSON.stringify(args)}: ${text(result)}`);
        }
      },
    );
  });
}
