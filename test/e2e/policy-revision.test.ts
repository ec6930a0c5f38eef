import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { mintCapability } from "../../runtime/capability/index.js";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { errorCode, eras, type ToolResult } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture, useServedClient } from "../runtime/support/runtime-fixture.js";

for (const era of eras) {
  describe(`a higher line policyRevision mid-session, ${era} (L11, C11)`, () => {
    let lineDir: string;
    let lineFile: string;
    let baseLine: Record<string, unknown>;

    const setRevision = (policyRevision: number) =>
      writeFile(lineFile, JSON.stringify({ ...baseLine, policyRevision }));

    const served = useServedClient(era, async () => {
      baseLine = JSON.parse(
        await readFile(path.join(repoRoot, "release/line.json"), "utf8"),
      ) as Record<string, unknown>;
      lineDir = await mkdtemp(path.join(tmpdir(), "skillpilot-revision-"));
      lineFile = path.join(lineDir, "line.json");
      await setRevision(10);
      return startFixture({ lineFile, sessionTtlSeconds: 90 * 86400 });
    });
    let d: CoachDriver;
    before(() => {
      d = new CoachDriver(served.client, served.fx);
    });
    after(async () => {
      await rm(lineDir, { recursive: true, force: true });
    });

    const record = (sid: string, gradingCapability: string): Promise<ToolResult> =>
      d.call("record_skillpilot_verified_recall_results", {
        learningSessionId: sid,
        gradingCapability,
        assessments: [{ passed: true }, { passed: true }],
      });

    it(
      "retires the old session and its capabilities, keeps the learner's " +
        "progress, and a new launch works",
      async () => {
        const learner = `bump-${era}`;
        await setRevision(10);
        // An open two-item recall batch under revision 10, and an unused option set of a second
        // session.
        const { sid, ctx } = await d.sessionWithMastered(learner, 2);
        d.advanceDays(2);
        await d.master(ctx);
        const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
        const revealed = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid,
          batchCapability: started.batchCapability,
        });
        const optionSid = await served.fx.newSession(`bump-options-${era}`);
        const offered = await d.context(optionSid);
        assert.ok(offered.options.length > 0);
        const before = await d.rows(sid);

        await setRevision(11);

        // The session gate runs first: every call on a pre-bump session fails closed with the
        // session error.
        const refusals: ToolResult[] = [
          await record(sid, revealed.gradingCapability),
          await d.call("get_skillpilot_verified_recall_answers", {
            learningSessionId: sid,
            batchCapability: started.batchCapability,
          }),
          await d.call("get_skillpilot_learning_context", { learningSessionId: sid }),
          await d.call("choose_skillpilot_option", {
            learningSessionId: optionSid,
            expectedStateVersion: offered.stateVersion,
            clientRequestId: randomUUID(),
            option: offered.options[0].payload,
          }),
        ];
        for (const result of refusals) {
          assert.equal(errorCode(result), "SESSION_VERSION_UNAVAILABLE", JSON.stringify(result));
          assert.ok(
            String(result.content[0].text).includes(served.fx.services.config.launchUrl),
            "ends with the first-party start instruction",
          );
        }
        assert.deepEqual(await d.rows(sid), before, "nothing written on the retired session");

        // A new launch for the same learner is pinned to revision 11 and sees the same open batch.
        const fresh = await served.fx.launch({ learner, locale: "en" });
        assert.equal(fresh.status, 201);
        const sid2 = String(fresh.body.learningSessionId);
        assert.equal(
          (await served.fx.db("sessions").where({ session_id: sid2 }).first()).policy_revision,
          11,
        );
        const restarted = await d.ok("start_skillpilot_verified_recall", {
          learningSessionId: sid2,
        });
        assert.deepEqual(restarted.batch, started.batch, "learner state survives the new session");
        // Capabilities of the old session do not carry over; one minted under the old revision is
        // stale.
        assert.equal(
          errorCode(await record(sid2, revealed.gradingCapability)),
          "CAPABILITY_INVALID",
        );
        const state = JSON.parse((await d.rows(sid2)).state.state_json) as Out;
        const underOldRevision = mintCapability(served.fx.services.keyring, {
          purpose: "grading",
          learningSessionId: sid2,
          policyRevision: 10,
          expiresAt: new Date(served.fx.services.now().getTime() + 3600_000),
          batchId: state.recallBatch.batchId,
        });
        assert.equal(errorCode(await record(sid2, underOldRevision)), "CAPABILITY_STALE");
        assert.deepEqual((await d.rows(sid2)).receipts, before.receipts);

        const answers = await d.ok("get_skillpilot_verified_recall_answers", {
          learningSessionId: sid2,
          batchCapability: restarted.batchCapability,
        });
        const recorded = await record(sid2, answers.gradingCapability);
        assert.equal(recorded.isError, undefined, JSON.stringify(recorded));
      },
    );

    it(
      "answers TEMPORARILY_UNAVAILABLE on session calls while the line file is " +
        "invalid, and recovers when it is fixed",
      async () => {
        await setRevision(20);
        const sid = await served.fx.newSession(`invalid-line-${era}`);
        await writeFile(lineFile, "{ not json");
        assert.equal(
          errorCode(await d.call("get_skillpilot_learning_context", { learningSessionId: sid })),
          "TEMPORARILY_UNAVAILABLE",
        );
        await setRevision(20);
        assert.equal(
          (await d.call("get_skillpilot_learning_context", { learningSessionId: sid })).isError,
          undefined,
        );
      },
    );
  });
}
