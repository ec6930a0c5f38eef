import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import knexFactory from "knex";
import { toolDescriptors } from "../../generated/tools.gen.js";
import {
  clientEras,
  connectClient,
  errorCode,
  type ToolResult,
} from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";
import type { WireObject } from "../support/wire.js";

type Context = WireObject;

for (const era of clientEras) {
  describe(`coach turn over MCP, ${era}`, () => {
    const served = useServedClient(era);

    const context = async (learningSessionId: string): Promise<Context> => {
      const result = await served.client.callTool("get_skillpilot_learning_context", {
        learningSessionId,
      });
      assert.equal(result.isError, undefined, JSON.stringify(result));
      return result.structuredContent as Context;
    };
    const learnerIdOf = async (sessionId: string) =>
      (await served.fx.db("sessions").where({ session_id: sessionId }).first())
        .learner_id as number;
    const stateRow = async (sessionId: string) =>
      served.fx
        .db("learner_state")
        .where({ learner_id: await learnerIdOf(sessionId) })
        .first();

    /** Launch, then choose the first option so a goal is active; returns the session and context. */
    const activeGoalSession = async (learner: string) => {
      const sid = await served.fx.newSession(learner);
      const ctx = await context(sid);
      const chosen = await served.client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      });
      assert.equal(chosen.isError, undefined, JSON.stringify(chosen));
      return { sid, ctx: chosen.structuredContent as Context };
    };

    it("lists the generated descriptors with schemas unchanged (C9, L8)", async () => {
      const { tools } = await served.client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      assert.equal(tools.length, toolDescriptors.length);
      for (const d of toolDescriptors) {
        assert.deepEqual(byName.get(d.name)?.inputSchema, d.inputSchema, d.name);
        assert.deepEqual(byName.get(d.name)?.outputSchema, d.outputSchema, d.name);
      }
    });

    it("runs a full turn: launch → context → choose option → complete goal → next context (C2, C6, C14)", async () => {
      const sid = await served.fx.newSession(`turn-${era}`, "de");
      const first = await context(sid);
      assert.equal(first.requiredAction, "chooseOption");
      assert.equal(first.communicationLocale, "de");
      assert.match(first.curriculumRevision, /^curricula-sha256@[0-9a-f]{64}$/);
      assert.equal(first.workflowVersion, "coach@2.3");
      assert.ok(first.options.length >= 3 && first.options.length <= 4);
      assert.deepEqual(first.allowedActions, ["choose_skillpilot_option"]);

      const chosen = await served.client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: first.stateVersion,
        clientRequestId: randomUUID(),
        option: first.options[0].payload,
      });
      const teach = chosen.structuredContent as Context;
      assert.equal(teach.requiredAction, "teachActiveGoal");
      assert.equal(teach.stateVersion, first.stateVersion + 1);
      assert.equal(teach.currentStep.kind, "goal");
      assert.equal(teach.currentStep.goalId, "git-basics.repository");
      assert.equal(teach.currentStep.title, "Ein Repository anlegen");

      const done = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: teach.stateVersion,
        clientRequestId: randomUUID(),
        decision: "achieved",
      });
      const out = done.structuredContent as Context;
      assert.equal(out.receipt.stateVersion, teach.stateVersion + 1);
      assert.equal(out.receipt.operation, "complete_skillpilot_goal");
      assert.ok(
        !JSON.stringify(out.receipt).includes(sid),
        "the receipt does not echo the session id",
      );
      assert.deepEqual(out.goal, {
        goalId: "git-basics.repository",
        skillId: "git-basics",
        title: "Ein Repository anlegen",
        status: "mastered",
      });
      assert.deepEqual(out.mastery, { masteredGoals: 1, totalGoals: 5, skillMastered: false });
      assert.equal(out.successor.requiredAction, "teachActiveGoal");
      assert.equal(out.successor.currentStep.goalId, "git-basics.staging");

      const next = await context(sid);
      assert.equal(next.stateVersion, out.receipt.stateVersion);
      assert.deepEqual({ ...next.currentStep }, out.successor.currentStep);
      const progress = await served.fx.db("progress").where({ learner_id: await learnerIdOf(sid) });
      assert.deepEqual(
        progress.map((p) => [p.goal_id, p.status]),
        [["git-basics.repository", "mastered"]],
      );
    });

    it("replays an exact retry byte for byte and applies it once (G6)", async () => {
      const { sid, ctx } = await activeGoalSession(`replay-${era}`);
      const args = {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        decision: "achieved",
      };
      const first = await served.client.callTool("complete_skillpilot_goal", args);
      const again = await served.client.callTool("complete_skillpilot_goal", args);
      assert.equal(first.isError, undefined);
      assert.equal(JSON.stringify(again), JSON.stringify(first));
      const learnerId = await learnerIdOf(sid);
      assert.equal(
        (
          await served.fx
            .db("receipts")
            .where({ learner_id: learnerId, operation: "complete_skillpilot_goal" })
        ).length,
        1,
      );
      assert.equal((await stateRow(sid)).state_version, ctx.stateVersion + 1);
    });

    it("answers IDEMPOTENCY_KEY_REUSED for the same key with other input (G6)", async () => {
      const { sid, ctx } = await activeGoalSession(`reuse-${era}`);
      const key = randomUUID();
      await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: key,
        decision: "needsMorePractice",
      });
      const before = await stateRow(sid);
      const other = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: key,
        decision: "achieved",
      });
      assert.equal(errorCode(other), "IDEMPOTENCY_KEY_REUSED");
      assert.equal(other.structuredContent, undefined);
      assert.deepEqual(await stateRow(sid), before);
    });

    it("answers STATE_CONFLICT for a stale expectedStateVersion with a new key and changes no row (G5, C14)", async () => {
      const { sid, ctx } = await activeGoalSession(`stale-${era}`);
      const learnerId = await learnerIdOf(sid);
      const snapshot = async () => ({
        state: await stateRow(sid),
        progress: await served.fx.db("progress").where({ learner_id: learnerId }),
        receipts: await served.fx.db("receipts").where({ learner_id: learnerId }),
        keys: await served.fx.db("idempotency_records").where({ session_id: sid }),
      });
      const before = await snapshot();
      const stale = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion - 1,
        clientRequestId: randomUUID(),
        decision: "achieved",
      });
      assert.equal(errorCode(stale), "STATE_CONFLICT");
      assert.deepEqual(await snapshot(), before);
    });

    it("rejects an unknown property with INVALID_INPUT before anything is written (C5)", async () => {
      const { sid, ctx } = await activeGoalSession(`unknown-${era}`);
      const counts = async () =>
        Object.fromEntries(
          await Promise.all(
            [
              "learners",
              "sessions",
              "learner_state",
              "progress",
              "idempotency_records",
              "receipts",
            ].map(async (t) => [t, (await served.fx.db(t).count({ n: "*" }))[0].n]),
          ),
        );
      const before = { counts: await counts(), state: await stateRow(sid) };
      const result = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        decision: "achieved",
        learnerAnswer: "I typed git init and it worked",
      });
      assert.equal(errorCode(result), "INVALID_INPUT");
      assert.deepEqual({ counts: await counts(), state: await stateRow(sid) }, before);
    });

    it("lets exactly 1 of 8 concurrent writers with the same expectedStateVersion win; 7 get STATE_CONFLICT (G5)", async () => {
      const { sid, ctx } = await activeGoalSession(`race-${era}`);
      const clients = await Promise.all(
        Array.from({ length: 8 }, () => connectClient(served.fx, era)),
      );
      try {
        const results: ToolResult[] = await Promise.all(
          clients.map((c) =>
            c.callTool("complete_skillpilot_goal", {
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
        assert.equal((await stateRow(sid)).state_version, ctx.stateVersion + 1);
        assert.equal(
          (
            await served.fx
              .db("receipts")
              .where({ session_id: sid, operation: "complete_skillpilot_goal" })
          ).length,
          1,
        );
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });

    it("refuses completing when no goal is active with NOT_ELIGIBLE (C6)", async () => {
      const sid = await served.fx.newSession(`eligible-${era}`);
      const ctx = await context(sid);
      const result = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        decision: "achieved",
      });
      assert.equal(errorCode(result), "NOT_ELIGIBLE");
    });

    it("refuses an option payload from an older state version with OPTION_STALE (C14)", async () => {
      const sid = await served.fx.newSession(`option-${era}`);
      const first = await context(sid);
      const chosen = await served.client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: first.stateVersion,
        clientRequestId: randomUUID(),
        option: first.options[0].payload,
      });
      const done = await served.client.callTool("complete_skillpilot_goal", {
        learningSessionId: sid,
        expectedStateVersion: (chosen.structuredContent as Context).stateVersion,
        clientRequestId: randomUUID(),
        decision: "achieved",
      });
      const now = (done.structuredContent as Context).receipt.stateVersion;
      const again = await served.client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: now,
        clientRequestId: randomUUID(),
        option: first.options[1].payload,
      });
      assert.equal(errorCode(again), "OPTION_STALE");
    });

    it("answers an unknown session with SESSION_NOT_FOUND ending in the first-party start instruction, accepted by the client's output validation (C14)", async () => {
      const result = await served.client.callTool("get_skillpilot_learning_context", {
        learningSessionId: "sps_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      });
      assert.equal(errorCode(result), "SESSION_NOT_FOUND");
      assert.ok(
        result.content[0].text!.trimEnd().endsWith(`${served.fx.services.config.launchUrl}.`),
        result.content[0].text,
      );
      assert.equal(result.structuredContent, undefined);
    });

    /** Change a session row behind the server's back (what an operator or time would do). */
    const updateSession = async (sid: string, patch: Record<string, unknown>) => {
      const writable = knexFactory({
        client: "better-sqlite3",
        connection: { filename: served.fx.dbFile },
        useNullAsDefault: true,
      });
      try {
        await writable("sessions").where({ session_id: sid }).update(patch);
      } finally {
        await writable.destroy();
      }
    };

    it("fails closed with SESSION_VERSION_UNAVAILABLE when the pinned curriculum or workflow is gone (L8)", async () => {
      for (const patch of [
        { curriculum_revision: `curricula-sha256@${"0".repeat(64)}` },
        { workflow_version: "coach@1.0" },
      ]) {
        const sid = await served.fx.newSession(`pinned-${era}-${Object.keys(patch)[0]}`);
        await updateSession(sid, patch);
        const result = await served.client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.equal(errorCode(result), "SESSION_VERSION_UNAVAILABLE");
        const write = await served.client.callTool("complete_skillpilot_goal", {
          learningSessionId: sid,
          expectedStateVersion: 1,
          clientRequestId: randomUUID(),
          decision: "achieved",
        });
        assert.equal(errorCode(write), "SESSION_VERSION_UNAVAILABLE");
      }
    });

    it("answers an expired session with SESSION_EXPIRED in the session's locale (C3, C14)", async () => {
      const sid = await served.fx.newSession(`expired-${era}`, "de");
      await updateSession(sid, { expires_at: Date.now() - 1000 });
      const result = await served.client.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      assert.equal(errorCode(result), "SESSION_EXPIRED");
      assert.match(result.content[0].text!, /Diese Lernsitzung ist abgelaufen\./);
      assert.ok(result.content[0].text!.includes(served.fx.services.config.launchUrl));
    });

    it("answers a workflow tool that does not apply yet with a clean NOT_ELIGIBLE: no recall is due in a new session (C12, C14)", async () => {
      const sid = await served.fx.newSession(`later-${era}`);
      const result = await served.client.callTool("start_skillpilot_verified_recall", {
        learningSessionId: sid,
      });
      assert.equal(errorCode(result), "NOT_ELIGIBLE");
    });
  });
}
