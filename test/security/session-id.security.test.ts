import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { schemaPattern } from "../runtime/capability/capability-fixtures.js";
import type { Out } from "../runtime/support/coach-driver.js";
import { type CoachClient, connectClient } from "../runtime/support/mcp-clients.js";
import { readFileSync } from "node:fs";
import { sessionIdMutations } from "./support/mutations.js";
import {
  assertAccepted,
  assertRefusedUnwritten,
  era,
  useSecurityServer,
} from "./support/security-server.js";

/** The contract's pattern of a learning session id. */
const sessionIdPattern = new RegExp(
  JSON.parse(
    readFileSync(new URL("../../schemas/envelopes/common.schema.json", import.meta.url), "utf8"),
  ).$defs.LearningSessionId.pattern,
);

/** Well-formed stand-ins for the values a tool needs besides the session (the gate runs first). */
const sealedStandIn = (prefix: "cap1" | "opt1") => `${prefix}.k2026a.${"A".repeat(64)}`;

/** Arguments of every tool of the contract for session `sid`, schema-valid. */
function everyTool(
  sid: string,
  version: number,
  option: string,
): [string, Record<string, unknown>][] {
  const write = { learningSessionId: sid, expectedStateVersion: version };
  return [
    ["get_skillpilot_learning_context", { learningSessionId: sid }],
    ["choose_skillpilot_option", { ...write, clientRequestId: randomUUID(), option }],
    ["complete_skillpilot_goal", { ...write, clientRequestId: randomUUID(), decision: "achieved" }],
    [
      "render_skillpilot_goal_visualization",
      { learningSessionId: sid, goalId: "git-basics.init", expectedStateVersion: version },
    ],
    ["start_skillpilot_verified_recall", { learningSessionId: sid }],
    [
      "get_skillpilot_verified_recall_answers",
      { learningSessionId: sid, batchCapability: sealedStandIn("cap1") },
    ],
    [
      "record_skillpilot_verified_recall_results",
      {
        learningSessionId: sid,
        gradingCapability: sealedStandIn("cap1"),
        assessments: [{ passed: true }],
      },
    ],
    [
      "record_skillpilot_assessment_score",
      {
        ...write,
        clientRequestId: randomUUID(),
        assessmentCapability: sealedStandIn("cap1"),
        score: 1,
      },
    ],
    ["start_skillpilot_memory_practice", { learningSessionId: sid }],
    [
      "review_skillpilot_memory_practice_card",
      {
        learningSessionId: sid,
        practiceCapability: sealedStandIn("cap1"),
        clientRequestId: randomUUID(),
        grade: "good",
      },
    ],
  ];
}

/**
 * The learning session id is minted by the launch and echoed by the model on every call. It is not
 * a credential (the session belongs to the signed-in learner), but a changed, foreign, expired or
 * retired id must never reach anyone's learner state: each case is refused with its exact code and
 * writes nothing.
 */
describe("security: learning session ids (C14, L8, L14)", () => {
  const server = useSecurityServer();
  const db = () => server().fx.db;
  let intruder: CoachClient;
  before(async () => {
    // A real client signed in as another learner of the same issuer.
    intruder = await connectClient(server().fx, era, {
      authorize: () => server().fx.token("session-intruder"),
    });
    assert.ok(schemaPattern("Capability").test(sealedStandIn("cap1")));
  });
  after(() => intruder?.close());

  /** A session whose context offers options (nothing taught yet) and the first option. */
  const offered = async (learner: string) => {
    const sid = await server().fx.newSession(learner);
    const ctx = await server().d.context(sid);
    return { sid, version: ctx.stateVersion as number, option: ctx.options[0].payload as string };
  };
  const choose = (
    sid: string,
    version: number,
    option: string,
    client: CoachClient = server().client,
  ) =>
    client.callTool("choose_skillpilot_option", {
      learningSessionId: sid,
      expectedStateVersion: version,
      clientRequestId: randomUUID(),
      option,
    });

  describe("every position class, truncated, extended (a write: choose_skillpilot_option)", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      s = await offered("sid-mutations");
    });
    for (const m of sessionIdMutations)
      it(`refuses the session id: ${m.label}`, async () => {
        const mutated = m.apply(s.sid);
        assert.notEqual(mutated, s.sid);
        const code = sessionIdPattern.test(mutated) ? "SESSION_NOT_FOUND" : "INVALID_INPUT";
        await assertRefusedUnwritten(db(), code, () => choose(mutated, s.version, s.option));
      });
    it("control: the genuine session id still chooses", async () => {
      assertAccepted(await choose(s.sid, s.version, s.option));
    });
  });

  describe("replay across learner: my session id under another learner's token, on every tool", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      s = await offered("sid-victim");
    });
    for (const [tool] of everyTool("sps_x", 0, ""))
      it(`refuses ${tool} on another learner's session`, () =>
        assertRefusedUnwritten(db(), "SESSION_SUBJECT_MISMATCH", () =>
          intruder.callTool(tool, new Map(everyTool(s.sid, s.version, s.option)).get(tool)!),
        ));
    it("control: the owner still reads the session", async () => {
      assertAccepted(
        await server().d.call("get_skillpilot_learning_context", { learningSessionId: s.sid }),
      );
    });
  });

  describe("replay across lane and contract major", () => {
    it("refuses an openai-lane session on the claude lane's endpoint", async () => {
      const s = await offered("sid-lane");
      await assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () =>
        choose(s.sid, s.version, s.option, server().claude),
      );
    });
    it("refuses a claude-lane session on the public endpoint", async () => {
      const sid = await server().launchClaude("sid-lane");
      const ctx = (
        await server().claude.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        })
      ).structuredContent as Out;
      await assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () =>
        choose(sid, ctx.stateVersion, ctx.options[0].payload),
      );
    });
    it("refuses a major-1 session on contract major 2's endpoint", async () => {
      const s = await offered("sid-major");
      await assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        server().v2.callTool("mark_skillpilot_progress_reviewed", {
          learningSessionId: s.sid,
          expectedStateVersion: s.version,
          clientRequestId: randomUUID(),
        }),
      );
    });
    it("refuses a major-2 session on the major-1 endpoint", async () => {
      const sid = await server().launchV2("sid-major");
      const s = await offered("sid-major-own");
      await assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        choose(sid, s.version, s.option),
      );
    });
  });

  describe("expiry edges (the server clock frozen and moved)", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    let expiresAt: number;
    before(async () => {
      server().clock.freeze();
      s = await offered("sid-expiry");
      expiresAt = (await server().fx.services.store.findSession(s.sid))!.expiresAt;
    });
    after(() => server().clock.release());
    it("refuses a session exactly at its expiry", () => {
      server().clock.freeze(expiresAt);
      return assertRefusedUnwritten(db(), "SESSION_EXPIRED", () =>
        choose(s.sid, s.version, s.option),
      );
    });
    it("refuses a session one second past its expiry", () => {
      server().clock.freeze(expiresAt + 1000);
      return assertRefusedUnwritten(db(), "SESSION_EXPIRED", () =>
        choose(s.sid, s.version, s.option),
      );
    });
    it("refuses a session on an instance whose clock runs a year ahead", () => {
      server().clock.freeze(expiresAt + 365 * 86_400_000);
      return assertRefusedUnwritten(db(), "SESSION_EXPIRED", () =>
        server().d.call("get_skillpilot_learning_context", { learningSessionId: s.sid }),
      );
    });
    it("control: one millisecond before its expiry the session still chooses", async () => {
      server().clock.freeze(expiresAt - 1);
      // The options were sealed with an hour's lifetime: read them at this instant.
      const ctx = await server().d.context(s.sid);
      assertAccepted(await choose(s.sid, ctx.stateVersion, ctx.options[0].payload));
    });
  });

  describe("a policy revision bump (last: it retires every session of this server)", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      s = await offered("sid-bump");
      await server().bumpPolicyRevision();
    });
    it("refuses a write on a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        choose(s.sid, s.version, s.option),
      ));
    it("refuses a read on a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        server().d.call("get_skillpilot_learning_context", { learningSessionId: s.sid }),
      ));
  });
});
