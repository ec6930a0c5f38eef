import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import {
  type CoachClient,
  connectSpread,
  errorCode,
  eras,
  type SpreadClient,
  type ToolResult,
} from "../runtime/support/mcp-clients.js";
import { type ServerCluster, startCluster } from "../runtime/support/server-cluster.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import type { WireObject } from "../support/wire.js";

type Out = WireObject;
const DAY_MS = 86_400_000;

/**
 * Issue #15 item 3: two `skillpilot start` processes on one PostgreSQL database (SERIALIZABLE with
 * the bounded retry), and every call of one learner on the other instance than the call before
 * (a load balancer without session affinity). Idempotency, conflicts, capability replay and
 * Verified Recall must behave exactly as on one instance.
 */
describe("scale-out: two instances on one PostgreSQL database (issue #15 item 3)", function () {
  this.timeout(120_000);
  let pg: ThrowawayPostgres | undefined;
  let cluster: ServerCluster | undefined;

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    cluster = await startCluster(pg.url, 2);
  });
  after(async () => {
    try {
      await cluster?.close();
    } finally {
      await pg?.stop();
    }
  });

  const c = () => cluster!;

  it("both instances started at once on an empty database: the migrations ran once", async () => {
    const migrations = await c().db("knex_migrations").select("name");
    assert.equal(new Set(migrations.map((m) => m.name)).size, migrations.length);
    assert.ok(migrations.length > 0);
  });

  for (const era of eras) {
    describe(era, () => {
      let client: SpreadClient;
      before(async () => {
        client = await connectSpread(c().urls, era, c().authorize);
      });
      after(async () => client?.close());

      const ok = async (name: string, args: Record<string, unknown>): Promise<Out> => {
        const result = await client.callTool(name, args);
        assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result)}`);
        return result.structuredContent as Out;
      };
      /** A new learner with the first goal active (launched on one instance, chosen on the other). */
      const activeGoal = async (learner: string): Promise<{ sid: string; ctx: Out }> => {
        const sid = await c().launch(`${learner}-${era}`, 1);
        const first = await ok("get_skillpilot_learning_context", { learningSessionId: sid });
        const ctx = await ok("choose_skillpilot_option", {
          learningSessionId: sid,
          expectedStateVersion: first.stateVersion,
          clientRequestId: randomUUID(),
          option: first.options[0].payload,
        });
        return { sid, ctx };
      };
      const receipts = async (sid: string, operation: string) =>
        (await c().rows(sid)).receipts.filter((r: Out) => r.operation === operation).length;
      /**
       * Every call of a learner went to the other instance than the call before (the client
       * alternates; this guards the test itself).
       */
      const alternated = (from: number) => {
        const served = client.served.slice(from);
        assert.ok(served.every((i, n) => n === 0 || i !== served[n - 1]));
        assert.ok(new Set(served).size === 2 || served.length < 2);
      };

      it("runs a turn across instances: each step on the other instance sees the last one's commit (C2)", async () => {
        const from = client.served.length;
        const { sid, ctx } = await activeGoal("turn");
        assert.equal(ctx.requiredAction, "teachActiveGoal");
        const done = await ok("complete_skillpilot_goal", {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        });
        const next = await ok("get_skillpilot_learning_context", { learningSessionId: sid });
        assert.equal(next.stateVersion, done.receipt.stateVersion);
        assert.deepEqual({ ...next.currentStep }, done.successor.currentStep);
        alternated(from);
      });

      it("keeps a learner's writes exact when its calls stay on one instance, then move to the other and back", async () => {
        const { sid, ctx } = await activeGoal("sticky");
        const [a, b] = client.perInstance;
        const on = async (who: CoachClient, version: number, decision = "needsMorePractice") => {
          const result = await who.callTool("complete_skillpilot_goal", {
            learningSessionId: sid,
            expectedStateVersion: version,
            clientRequestId: randomUUID(),
            decision,
          });
          assert.equal(result.isError, undefined, JSON.stringify(result));
          const committed = (result.structuredContent as Out).receipt.stateVersion as number;
          // The database holds exactly what the answer says, after each step.
          const rows = await c().rows(sid);
          assert.equal(rows.state.state_version, committed);
          assert.equal(rows.receipts.filter((r: Out) => r.state_version === committed).length, 1);
          return committed;
        };
        // Three writes on one instance (it keeps the row it wrote), one on the other (the first
        // instance's row is now stale), then the first again and a retry there.
        let version = ctx.stateVersion as number;
        for (let i = 0; i < 3; i++) version = await on(a, version);
        version = await on(b, version);
        version = await on(a, version);
        const stale = await a.callTool("complete_skillpilot_goal", {
          learningSessionId: sid,
          expectedStateVersion: version - 1,
          clientRequestId: randomUUID(),
          decision: "needsMorePractice",
        });
        assert.equal(errorCode(stale), "STATE_CONFLICT");
        version = await on(a, version, "achieved");
        const rows = await c().rows(sid);
        assert.equal(rows.state.state_version, ctx.stateVersion + 6);
        assert.equal(await receipts(sid, "complete_skillpilot_goal"), 6);
      });

      it("replays an exact retry on the other instance byte for byte and applies it once (G6)", async () => {
        const { sid, ctx } = await activeGoal("replay");
        const args = {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        };
        const first = await client.callTool("complete_skillpilot_goal", args);
        const again = await client.callTool("complete_skillpilot_goal", args);
        assert.equal(first.isError, undefined, JSON.stringify(first));
        assert.equal(JSON.stringify(again), JSON.stringify(first));
        assert.equal(await receipts(sid, "complete_skillpilot_goal"), 1);
        assert.equal((await c().rows(sid)).state.state_version, ctx.stateVersion + 1);

        // The same key with other input, on either instance: refused, nothing changes.
        const before = await c().rows(sid);
        for (let i = 0; i < 2; i++) {
          const other = await client.callTool("complete_skillpilot_goal", {
            ...args,
            decision: "needsMorePractice",
          });
          assert.equal(errorCode(other), "IDEMPOTENCY_KEY_REUSED");
        }
        assert.deepEqual(await c().rows(sid), before);
      });

      it("answers one exact retry sent to both instances at the same moment identically, applied once (G6)", async () => {
        const { sid, ctx } = await activeGoal("replay-race");
        const args = {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          decision: "needsMorePractice",
        };
        const [a, b] = await Promise.all(
          client.perInstance.map((instance) => instance.callTool("complete_skillpilot_goal", args)),
        );
        assert.equal(a.isError, undefined, JSON.stringify(a));
        assert.equal(JSON.stringify(b), JSON.stringify(a));
        assert.equal(await receipts(sid, "complete_skillpilot_goal"), 1);
      });

      it("answers STATE_CONFLICT on the other instance for a version the first one moved, changing nothing (G5, C14)", async () => {
        const { sid, ctx } = await activeGoal("stale");
        await ok("complete_skillpilot_goal", {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          decision: "needsMorePractice",
        });
        const before = await c().rows(sid);
        const stale = await client.callTool("complete_skillpilot_goal", {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        });
        assert.equal(errorCode(stale), "STATE_CONFLICT");
        assert.deepEqual(await c().rows(sid), before);
      });

      it("lets exactly 1 of 8 concurrent writers spread over both instances win; 7 get STATE_CONFLICT (G5)", async () => {
        const { sid, ctx } = await activeGoal("race");
        const results: ToolResult[] = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            client.perInstance[i % 2].callTool("complete_skillpilot_goal", {
              learningSessionId: sid,
              expectedStateVersion: ctx.stateVersion,
              clientRequestId: randomUUID(),
              decision: "achieved",
            }),
          ),
        );
        assert.equal(results.filter((r) => !r.isError).length, 1);
        assert.deepEqual(
          results.filter((r) => r.isError).map(errorCode),
          Array(7).fill("STATE_CONFLICT"),
        );
        assert.equal((await c().rows(sid)).state.state_version, ctx.stateVersion + 1);
        assert.equal(await receipts(sid, "complete_skillpilot_goal"), 1);
      });

      /** A learner with two goals mastered three days ago and nothing active: recall is due. */
      const recallDue = async (learner: string): Promise<string> => {
        const sid = await c().launch(`${learner}-${era}`, 0);
        const learner_id = await c().learnerId(sid);
        const masteredAt = new Date(Date.now() - 3 * DAY_MS).toISOString();
        await c()
          .db("progress")
          .insert(
            ["git-basics.repository", "git-basics.staging"].map((goal_id) => ({
              learner_id,
              goal_id,
              status: "mastered",
              attempts: 1,
              mastered_at: masteredAt,
              updated_at: masteredAt,
            })),
          );
        await c()
          .db("learner_state")
          .where({ learner_id, state_version: 1 })
          .update({
            state_version: 2,
            state_json: JSON.stringify({ activeGoalId: null, focusSkillId: "git-basics" }),
          });
        return sid;
      };

      it("runs Verified Recall with each of its calls on the other instance, and the continuation too (C12, C13, G10)", async () => {
        const from = client.served.length;
        const sid = await recallDue("recall");
        const ctx = await ok("get_skillpilot_learning_context", { learningSessionId: sid });
        assert.ok(ctx.allowedActions.includes("start_skillpilot_verified_recall"));
        const started = await ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        assert.equal(started.batch.items.length, 2);
        const revealed = await ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        assert.equal(revealed.answers.length, 2);
        const recorded = await ok("record_skillpilot_verified_recall_results", {
          learningSessionId: sid,
          gradingCapability: revealed.gradingCapability,
          assessments: [{ passed: true }, { passed: false }],
        });
        assert.deepEqual(recorded.recalled, { passed: 1, failed: 1 });
        const { toolCall } = recorded.continuation;
        if (toolCall) {
          const rendered = await ok(toolCall.name, {
            learningSessionId: sid,
            ...toolCall.arguments,
          });
          assert.equal(rendered.stateVersion, recorded.receipt.stateVersion);
        }
        const state = JSON.parse((await c().rows(sid)).state.state_json);
        assert.equal(state.recallBatch, null);
        assert.equal(await receipts(sid, "record_skillpilot_verified_recall_results"), 1);
        alternated(from);
      });

      it("replays a recorded batch on the other instance; other assessments are CAPABILITY_REPLAYED, the old batch CAPABILITY_STALE (C11, G6)", async () => {
        const sid = await recallDue("cap-replay");
        const started = await ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const { gradingCapability } = await ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const args = {
          learningSessionId: sid,
          gradingCapability,
          assessments: [{ passed: true }, { passed: true }],
        };
        const first = await client.callTool("record_skillpilot_verified_recall_results", args);
        assert.equal(first.isError, undefined, JSON.stringify(first));
        const after = await c().rows(sid);
        const again = await client.callTool("record_skillpilot_verified_recall_results", args);
        assert.equal(JSON.stringify(again), JSON.stringify(first));
        for (let i = 0; i < 2; i++) {
          const other = await client.callTool("record_skillpilot_verified_recall_results", {
            ...args,
            assessments: [{ passed: false }, { passed: true }],
          });
          assert.equal(errorCode(other), "CAPABILITY_REPLAYED");
        }
        const stale = await client.callTool("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        assert.equal(errorCode(stale), "CAPABILITY_STALE");
        assert.deepEqual(await c().rows(sid), after, "replays change nothing");
      });

      it("spends one grading capability once when two different gradings race on the two instances (C11, G5)", async () => {
        const sid = await recallDue("cap-race");
        const started = await ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const { gradingCapability } = await ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const results = await Promise.all(
          [
            [{ passed: true }, { passed: true }],
            [{ passed: false }, { passed: false }],
          ].map((assessments, i) =>
            client.perInstance[i].callTool("record_skillpilot_verified_recall_results", {
              learningSessionId: sid,
              gradingCapability,
              assessments,
            }),
          ),
        );
        assert.equal(results.filter((r) => !r.isError).length, 1, JSON.stringify(results));
        assert.deepEqual(results.filter((r) => r.isError).map(errorCode), ["CAPABILITY_REPLAYED"]);
        assert.equal(await receipts(sid, "record_skillpilot_verified_recall_results"), 1);
      });
    });
  }
});
