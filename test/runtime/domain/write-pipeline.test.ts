import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeServices, createServices } from "../../../runtime/boot.js";
import { loadConfig } from "../../../runtime/config/config.js";
import { launchSession, primaryTarget } from "../../../runtime/domain/launch.js";
import { CoachError } from "../../../runtime/errors.js";
import { writeHandler } from "../../../runtime/domain/write-pipeline.js";
import type { CallContext } from "../../../runtime/domain/call-context.js";
import { handlerDeps, type RuntimeServices } from "../../../runtime/services.js";
import { repoRoot } from "../support/runtime-fixture.js";

describe("shared write pipeline", () => {
  let dir: string;
  let services: RuntimeServices;
  let sessionId: string;
  // In process there is no HTTP gate: the caller is the signed-in learner the session is for.
  const ctx = (): CallContext => ({
    deps: handlerDeps(services),
    contract: primaryTarget(services),
    now: new Date(),
    caller: {
      issuer: services.auth.settings.issuer,
      subject: "pipeline",
      clientId: "skillpilot-local-dev",
      scopes: services.auth.settings.scopesSupported,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    },
  });
  const input = (clientRequestId = randomUUID()) => ({
    learningSessionId: sessionId,
    expectedStateVersion: 1,
    clientRequestId,
    decision: "achieved" as const,
  });

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-pipeline-"));
    services = await createServices(
      await loadConfig(repoRoot, { dataDir: dir, logDestination: path.join(dir, "log") }, {}),
    );
    const launched = await launchSession(services, { learner: "pipeline", locale: "en" });
    assert.equal(launched.kind, "minted");
    sessionId = launched.kind === "minted" ? launched.learningSessionId : "";
  });
  afterEach(async () => {
    await closeServices(services);
    await rm(dir, { recursive: true, force: true });
  });

  it(
    "answers REQUEST_IN_PROGRESS while the same key is still running, then " + "replays it (G6)",
    async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let applied = 0;
      const slow = writeHandler({
        tool: "complete_skillpilot_goal",
        async apply(_input, { snapshot }) {
          applied++;
          await gate;
          return { state: snapshot.state, value: undefined };
        },
        respond: ({ receipt }) => ({ receipt }) as never,
      });
      const args = input();
      const first = slow(args, ctx());
      await new Promise((r) => setImmediate(r));
      await assert.rejects(
        slow(args, ctx()),
        (e: unknown) => e instanceof CoachError && e.code === "REQUEST_IN_PROGRESS",
      );
      release();
      const done = await first;
      assert.deepEqual(await slow(args, ctx()), done);
      assert.equal(applied, 1);
    },
  );

  it(
    "persists nothing when the rule refuses after writing through the " + "transaction (C14)",
    async () => {
      const failing = writeHandler({
        tool: "complete_skillpilot_goal",
        async apply(_input, { snapshot, tx, now }) {
          await tx.saveProgress(
            snapshot.learnerId,
            {
              goalId: "git-basics.repository",
              status: "mastered",
              attempts: 1,
              masteredAt: now.toISOString(),
            },
            now.toISOString(),
          );
          throw new CoachError("NOT_ELIGIBLE");
        },
        respond: () => ({}) as never,
      });
      const args = input();
      await assert.rejects(
        failing(args, ctx()),
        (e: unknown) => e instanceof CoachError && e.code === "NOT_ELIGIBLE",
      );
      const session = (await services.store.findSession(sessionId))!;
      const snapshot = await services.store.loadLearner(session.learnerId);
      assert.equal(snapshot.stateVersion, 1);
      assert.equal(snapshot.progress.size, 0);
      const stored = await services.store.write((tx) =>
        tx.findIdempotency(
          {
            sessionId,
            toolName: "complete_skillpilot_goal",
            clientRequestId: args.clientRequestId,
          },
          Date.now(),
        ),
      );
      assert.equal(stored, undefined, "a refused write leaves no replay record");
    },
  );

  it(
    "runs the step-3 authorize hook before idempotency and the lock, and hands " +
      "its result to apply",
    async () => {
      const order: string[] = [];
      const guarded = writeHandler({
        tool: "complete_skillpilot_goal",
        authorize(_input, { session }) {
          order.push("authorize");
          return { fingerprintOf: session.sessionId.length };
        },
        apply(_input, { snapshot, auth }) {
          order.push(`apply:${auth.fingerprintOf}`);
          return { state: snapshot.state, value: undefined };
        },
        respond: ({ receipt }) => ({ receipt }) as never,
      });
      await guarded(input(), ctx());
      assert.deepEqual(order, ["authorize", `apply:${sessionId.length}`]);
      const refusing = writeHandler({
        tool: "complete_skillpilot_goal",
        authorize() {
          throw new CoachError("CAPABILITY_INVALID");
        },
        apply: () => assert.fail("apply must not run"),
        respond: () => assert.fail("respond must not run"),
      });
      await assert.rejects(
        refusing({ ...input(), expectedStateVersion: 2 }, ctx()),
        (e: unknown) => e instanceof CoachError && e.code === "CAPABILITY_INVALID",
      );
    },
  );
});
