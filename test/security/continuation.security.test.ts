import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { type CoachClient, connectClient } from "../runtime/support/mcp-clients.js";
import { flipChar } from "./support/mutations.js";
import {
  assertAccepted,
  assertRefusedUnwritten,
  assertRpcRefusedUnwritten,
  era,
  useSecurityServer,
} from "./support/security-server.js";

const DAY_MS = 86_400_000;
const RENDER = "render_skillpilot_goal_visualization";

/** The contract's GoalId: its pattern and maximum length. */
const goalIdSchema = JSON.parse(
  readFileSync(new URL("../../schemas/envelopes/common.schema.json", import.meta.url), "utf8"),
).$defs.GoalId as { pattern: string; maxLength: number };
const isGoalId = (value: string) =>
  new RegExp(goalIdSchema.pattern).test(value) && value.length <= goalIdSchema.maxLength;

/** The arguments the server filled into a continuation's `toolCall`. */
interface RenderArgs {
  goalId: string;
  expectedStateVersion: number;
}

/** Ways the model could change the `goalId` it was told to pass on. */
const goalIdMutations: readonly { label: string; apply(goalId: string): string }[] = [
  { label: "bit flip in its first character", apply: (g) => flipChar(g, 0) },
  { label: "bit flip in its separator", apply: (g) => flipChar(g, g.indexOf(".")) },
  { label: "bit flip in its last character", apply: (g) => flipChar(g, g.length - 1) },
  { label: "in upper case", apply: (g) => g.toUpperCase() },
  { label: "truncated by one character", apply: (g) => g.slice(0, -1) },
  { label: "truncated to its skill", apply: (g) => g.slice(0, g.indexOf(".")) },
  { label: "extended by one character", apply: (g) => `${g}2` },
  { label: "extended by a segment", apply: (g) => `${g}.extra` },
  { label: "extended by whitespace", apply: (g) => `${g} ` },
  { label: "extended beyond the maximum length", apply: (g) => g.padEnd(81, "x") },
  {
    label: "replaced by an earlier goal with a visualization",
    apply: () => "git-basics.repository",
  },
  { label: "replaced by a later goal without one", apply: () => "git-basics.history" },
];

/** Ways the model could change the `expectedStateVersion` it was told to pass on. */
const versionMutations: readonly {
  label: string;
  apply(version: number): unknown;
  code: string;
}[] = [
  { label: "one higher", apply: (v) => v + 1, code: "STATE_CONFLICT" },
  { label: "one lower", apply: (v) => v - 1, code: "STATE_CONFLICT" },
  { label: "zero", apply: () => 0, code: "STATE_CONFLICT" },
  { label: "a huge integer", apply: () => 2 ** 31, code: "STATE_CONFLICT" },
  { label: "negative", apply: () => -1, code: "INVALID_INPUT" },
  { label: "a fraction", apply: (v) => v + 0.5, code: "INVALID_INPUT" },
  { label: "a numeric string", apply: (v) => String(v), code: "INVALID_INPUT" },
  { label: "null", apply: () => null, code: "INVALID_INPUT" },
];

/**
 * A continuation's `toolCall` carries arguments the server filled in — the goal to render and the
 * state version it was committed at — which the model passes on verbatim. Changed, replayed or
 * outdated arguments are refused with their exact code and write nothing.
 */
describe("security: continuation toolCall arguments (C10, C13)", () => {
  const server = useSecurityServer();
  const db = () => server().fx.db;
  let intruder: CoachClient;
  before(async () => {
    intruder = await connectClient(server().fx, era, {
      authorize: () => server().fx.token("continuation-intruder"),
    });
  });
  after(() => intruder?.close());

  /** A session whose Verified Recall just completed: its continuation renders the next goal. */
  const withContinuation = async (learner: string): Promise<{ sid: string; args: RenderArgs }> => {
    const d = server().d;
    const { sid, ctx } = await d.sessionWithMastered(learner, 1);
    server().clock.advance(2 * DAY_MS);
    await d.master(ctx);
    const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
    const revealed = await d.ok("get_skillpilot_verified_recall_answers", {
      learningSessionId: sid,
      batchCapability: started.batchCapability,
    });
    const recorded = await d.ok("record_skillpilot_verified_recall_results", {
      learningSessionId: sid,
      gradingCapability: revealed.gradingCapability,
      assessments: started.batch.items.map(() => ({ passed: true })),
    });
    const call = recorded.continuation.toolCall;
    assert.equal(call?.name, RENDER, JSON.stringify(recorded.continuation));
    return { sid, args: call.arguments as RenderArgs };
  };
  const render = (sid: string, args: Record<string, unknown>, client = server().client) =>
    client.callTool(RENDER, { learningSessionId: sid, ...args });

  describe("the goalId changed", () => {
    let c: Awaited<ReturnType<typeof withContinuation>>;
    before(async () => {
      c = await withContinuation("cont-goal");
    });
    for (const m of goalIdMutations)
      it(`refuses the continuation's goalId ${m.label}`, async () => {
        const goalId = m.apply(c.args.goalId);
        assert.notEqual(goalId, c.args.goalId);
        const code = isGoalId(goalId) ? "NOT_ELIGIBLE" : "INVALID_INPUT";
        await assertRefusedUnwritten(db(), code, () => render(c.sid, { ...c.args, goalId }));
      });
    it("control: the genuine continuation renders", async () => {
      assertAccepted(await render(c.sid, { ...c.args }));
    });
  });

  describe("the expectedStateVersion changed, an argument added or left out", () => {
    let c: Awaited<ReturnType<typeof withContinuation>>;
    before(async () => {
      c = await withContinuation("cont-version");
    });
    for (const m of versionMutations)
      it(`refuses the continuation's expectedStateVersion ${m.label}`, () =>
        assertRefusedUnwritten(db(), m.code, () =>
          render(c.sid, { ...c.args, expectedStateVersion: m.apply(c.args.expectedStateVersion) }),
        ));
    it("refuses the continuation's arguments with one more argument", () =>
      assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        render(c.sid, { ...c.args, stateVersion: c.args.expectedStateVersion }),
      ));
    it("refuses the continuation's arguments without the state version", () =>
      assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        render(c.sid, { goalId: c.args.goalId }),
      ));
  });

  describe("replay across learner, tool, lane, contract major, state", () => {
    let c: Awaited<ReturnType<typeof withContinuation>>;
    let other: { sid: string; version: number };
    before(async () => {
      c = await withContinuation("cont-replay");
      const sid = await server().fx.newSession("cont-replay-other");
      const ctx = await server().d.choose(await server().d.context(sid));
      other = { sid, version: ctx.stateVersion };
    });
    it("refuses my continuation under another learner's token", () =>
      assertRefusedUnwritten(db(), "SESSION_SUBJECT_MISMATCH", () =>
        render(c.sid, { ...c.args }, intruder),
      ));
    it("refuses my continuation's arguments on another learner's session", () => {
      assert.notEqual(other.version, c.args.expectedStateVersion);
      return assertRefusedUnwritten(db(), "STATE_CONFLICT", () => render(other.sid, { ...c.args }));
    });
    it("refuses my continuation's goal on another learner's session at its own version", () =>
      assertRefusedUnwritten(db(), "NOT_ELIGIBLE", () =>
        render(other.sid, { ...c.args, expectedStateVersion: other.version }),
      ));
    it("refuses the continuation's arguments sent to another tool", () =>
      assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        server().client.callTool("start_skillpilot_memory_practice", {
          learningSessionId: c.sid,
          ...c.args,
        }),
      ));
    it("refuses the continuation's arguments sent to a write tool", () =>
      assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        server().client.callTool("complete_skillpilot_goal", {
          learningSessionId: c.sid,
          ...c.args,
          clientRequestId: randomUUID(),
          decision: "achieved",
        }),
      ));
    it("refuses my continuation on another lane's endpoint", () =>
      assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () =>
        render(c.sid, { ...c.args }, server().claude),
      ));
    it("refuses my continuation on contract major 2's endpoint (a tool it does not serve)", () =>
      assertRpcRefusedUnwritten(db(), -32602, () => render(c.sid, { ...c.args }, server().v2)));
    it("refuses my continuation once a later write moved the state on", async () => {
      const ctx = await server().d.context(c.sid);
      await server().d.master(ctx);
      await assertRefusedUnwritten(db(), "STATE_CONFLICT", () => render(c.sid, { ...c.args }));
    });
  });

  describe("expiry edges of the session it runs in (the server clock frozen and moved)", () => {
    let c: Awaited<ReturnType<typeof withContinuation>>;
    let expiresAt: number;
    before(async () => {
      c = await withContinuation("cont-expiry");
      expiresAt = (await server().fx.services.store.findSession(c.sid))!.expiresAt;
    });
    after(() => server().clock.release());
    it("refuses the continuation exactly at its session's expiry", () => {
      server().clock.freeze(expiresAt);
      return assertRefusedUnwritten(db(), "SESSION_EXPIRED", () => render(c.sid, { ...c.args }));
    });
    it("refuses the continuation one second past its session's expiry", () => {
      server().clock.freeze(expiresAt + 1000);
      return assertRefusedUnwritten(db(), "SESSION_EXPIRED", () => render(c.sid, { ...c.args }));
    });
    it("control: one millisecond before, the continuation renders", async () => {
      server().clock.freeze(expiresAt - 1);
      assertAccepted(await render(c.sid, { ...c.args }));
    });
  });

  describe("a policy revision bump (last: it retires every session of this server)", () => {
    let c: Awaited<ReturnType<typeof withContinuation>>;
    before(async () => {
      c = await withContinuation("cont-bump");
      await server().bumpPolicyRevision();
    });
    it("refuses a continuation of a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        render(c.sid, { ...c.args }),
      ));
  });
});
