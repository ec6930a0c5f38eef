import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { errorCode, eras } from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";
import { teachFirstOption } from "./support/active-goal.js";

/** The schema-compilation counter's value on /metrics (fails when it is not there). */
async function compilationsOn(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  assert.match(text, /^# TYPE skillpilot_schema_compilations_total counter$/m);
  const m = /^skillpilot_schema_compilations_total (\d+)$/m.exec(text);
  assert.ok(m, "skillpilot_schema_compilations_total has no sample");
  return Number(m[1]);
}

describe("/metrics counts schema compilations; none after the first calls (L13)", function () {
  this.timeout(60_000);
  for (const era of eras)
    describe(era, () => {
      const served = useServedClient(era);

      it("the counter does not move over repeated tool calls, lists and refusals", async () => {
        const { fx, client } = served;
        const sid = await fx.newSession(`compilations-${era}`);
        let version = await teachFirstOption(client, sid);
        /** Every kind of call the server answers: reads, writes, lists and refusals. */
        const traffic = async () => {
          assert.ok((await client.listTools()).tools.length > 0);
          const ctx = await client.callTool("get_skillpilot_learning_context", {
            learningSessionId: sid,
          });
          assert.notEqual(ctx.isError, true);
          const done = await client.callTool("complete_skillpilot_goal", {
            learningSessionId: sid,
            expectedStateVersion: version,
            clientRequestId: randomUUID(),
            decision: "needsMorePractice",
          });
          assert.notEqual(done.isError, true, JSON.stringify(done.content));
          version = (done.structuredContent as { receipt: { stateVersion: number } }).receipt
            .stateVersion;
          const stale = await client.callTool("complete_skillpilot_goal", {
            learningSessionId: sid,
            expectedStateVersion: version - 1,
            clientRequestId: randomUUID(),
            decision: "needsMorePractice",
          });
          assert.equal(errorCode(stale), "STATE_CONFLICT");
          const invalid = await client.callTool("get_skillpilot_learning_context", {
            learningSessionId: sid,
            unexpected: true,
          });
          assert.equal(invalid.isError, true);
        };
        await traffic();
        const afterFirst = await compilationsOn(fx.server.origin);
        for (let i = 0; i < 20; i++) await traffic();
        assert.equal(await compilationsOn(fx.server.origin), afterFirst);
      });
    });
});
