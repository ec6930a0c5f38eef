import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { connectClient, errorCode, eras, rawToolCall } from "../runtime/support/mcp-clients.js";
import { startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";

const TABLES = [
  "learners",
  "sessions",
  "learner_state",
  "progress",
  "idempotency_records",
  "receipts",
  "spent_capabilities",
];

/** Every row of every table a call could touch, for "zero mutation" assertions. */
async function everything(fx: RuntimeFixture): Promise<Record<string, unknown[]>> {
  return Object.fromEntries(
    await Promise.all(TABLES.map(async (t) => [t, await fx.db(t).select()] as const)),
  );
}

/** Raw JSON text of the extra key spliced into otherwise valid arguments. */
const extraKeys = [
  ['"__proto__":{"isAdmin":true}', "an own __proto__ object"],
  ['"__proto__":"x"', "an own __proto__ string"],
  ['"__proto__":null', "an own __proto__ null"],
  ['"\\u005f_proto__":{}', "an own __proto__ spelled with a JSON escape"],
  ['"constructor":{"prototype":{}}', "constructor"],
  ['"prototype":1', "prototype"],
] as const;

describe("own __proto__, constructor and prototype keys in tool arguments are refused (issue #15 item 8; C5, G9)", () => {
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(async () => fx?.close());

  for (const era of eras) {
    describe(era, () => {
      let sid: string;
      let version: number;
      let token: string;
      before(async () => {
        sid = await fx.newSession(`proto-${era}`);
        token = await fx.token(`proto-${era}`);
        const client = await connectClient(fx, era);
        try {
          const ctx = (
            await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid })
          ).structuredContent as { stateVersion: number; options: { payload: string }[] };
          const chosen = await client.callTool("choose_skillpilot_option", {
            learningSessionId: sid,
            expectedStateVersion: ctx.stateVersion,
            clientRequestId: randomUUID(),
            option: ctx.options[0].payload,
          });
          version = (chosen.structuredContent as { stateVersion: number }).stateVersion;
        } finally {
          await client.close();
        }
      });

      const completion = (extra: string) =>
        `{"learningSessionId":${JSON.stringify(sid)},"expectedStateVersion":${version},` +
        `"clientRequestId":"${randomUUID()}","decision":"needsMorePractice"${extra}}`;

      for (const [key, what] of extraKeys)
        it(`refuses ${what} on a write with INVALID_INPUT and changes nothing`, async () => {
          const before = await everything(fx);
          const { status, result } = await rawToolCall(
            fx.server.mcpUrl,
            era,
            "complete_skillpilot_goal",
            completion(`,${key}`),
            token,
          );
          assert.equal(status, 200);
          assert.equal(errorCode(result!), "INVALID_INPUT", JSON.stringify(result));
          assert.equal(result!.structuredContent, undefined);
          assert.deepEqual(await everything(fx), before);
        });

      it("refuses an own __proto__ key on a read and nested inside an array item", async () => {
        const read = await rawToolCall(
          fx.server.mcpUrl,
          era,
          "get_skillpilot_learning_context",
          `{"learningSessionId":${JSON.stringify(sid)},"__proto__":{}}`,
          token,
        );
        assert.equal(errorCode(read.result!), "INVALID_INPUT");
        const before = await everything(fx);
        const nested = await rawToolCall(
          fx.server.mcpUrl,
          era,
          "record_skillpilot_verified_recall_results",
          `{"learningSessionId":${JSON.stringify(sid)},` +
            `"gradingCapability":"cap1.k1.${"A".repeat(48)}",` +
            '"assessments":[{"passed":true,"__proto__":{"passed":false}}]}',
          token,
        );
        assert.equal(errorCode(nested.result!), "INVALID_INPUT");
        assert.deepEqual(await everything(fx), before);
      });

      it("still applies the same raw call without the extra key (the control)", async () => {
        const { result } = await rawToolCall(
          fx.server.mcpUrl,
          era,
          "complete_skillpilot_goal",
          completion(""),
          token,
        );
        assert.equal(result!.isError, undefined, JSON.stringify(result));
        version = (result!.structuredContent as { receipt: { stateVersion: number } }).receipt
          .stateVersion;
      });
    });
  }

  // A suite of its own: Mocha runs a suite's tests before its child suites, and this one stops the
  // server.
  describe("the log", () => {
    it("has the refusals as INVALID_INPUT, never the arguments (L13)", async () => {
      const log = await fx.stopAndReadLog();
      assert.ok(!log.includes("isAdmin"), "argument content in the log");
      const codes = log
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { toolName?: string; resultCode?: string })
        .filter((l) => l.toolName === "complete_skillpilot_goal")
        .map((l) => l.resultCode);
      assert.equal(
        codes.filter((c) => c === "INVALID_INPUT").length,
        extraKeys.length * eras.length,
      );
    });
  });
});
