import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mintCapability, type Purpose } from "../../runtime/capability/index.js";
import { capabilityLifetimeMs } from "../../runtime/domain/workflow-capabilities.js";
import { schemaPattern } from "../runtime/capability/capability-fixtures.js";
import type { Out } from "../runtime/support/coach-driver.js";
import type { CoachClient, ToolResult } from "../runtime/support/mcp-clients.js";
import { sealedTokenMutations } from "./support/mutations.js";
import {
  assertAccepted,
  assertRefusedUnwritten,
  assertRpcRefusedUnwritten,
  useSecurityServer,
} from "./support/security-server.js";

/**
 * Practice and assessment capabilities come back from the model on the writes they authorize: each
 * is mutated in every byte position class, replayed across learner, tool, arguments, lane, contract
 * major and policy revision, and presented at its expiry edges; the single-use one is spent twice.
 * Every case is refused with its exact code and writes nothing. (Thousands of single-bit flips of a
 * grading capability and the batch capability's cases: test/e2e/capability-tampering.test.ts.)
 */
describe("security: capabilities (C11)", () => {
  const server = useSecurityServer();
  const db = () => server().fx.db;
  const capabilityPattern = schemaPattern("Capability");
  /** A mutation the contract's pattern refuses is INVALID_INPUT; any other fails authentication. */
  const expectedOf = (value: string) =>
    capabilityPattern.test(value) ? "CAPABILITY_INVALID" : "INVALID_INPUT";

  const practiceDeck = async (sid: string, client?: CoachClient): Promise<string> => {
    const started = await (client ?? server().client).callTool("start_skillpilot_memory_practice", {
      learningSessionId: sid,
    });
    assertAccepted(started);
    return (started._meta as Out)["skillpilot/memoryPractice"].practiceCapability;
  };
  const review = (sid: string, practiceCapability: string, client?: CoachClient) =>
    (client ?? server().client).callTool("review_skillpilot_memory_practice_card", {
      learningSessionId: sid,
      practiceCapability,
      clientRequestId: randomUUID(),
      grade: "good",
    });
  const score = (
    sid: string,
    expectedStateVersion: number,
    assessmentCapability: string,
    points = 50,
    clientRequestId: string = randomUUID(),
  ): Promise<ToolResult> =>
    server().client.callTool("record_skillpilot_assessment_score", {
      learningSessionId: sid,
      expectedStateVersion,
      clientRequestId,
      assessmentCapability,
      score: points,
    });
  /** A capability for `sid` sealed with the server's own keys under chosen claims. */
  const sealedFor = (
    purpose: Purpose,
    sid: string,
    claims: { policyRevision: number; stateVersion?: number; batchId?: string },
  ) => {
    const { services } = server().fx;
    return mintCapability(services.keyring, {
      purpose,
      learningSessionId: sid,
      policyRevision: claims.policyRevision,
      expiresAt: new Date(services.now().getTime() + 3600_000),
      ...(claims.stateVersion !== undefined
        ? { stateVersion: claims.stateVersion }
        : { batchId: claims.batchId ?? "pd0" }),
      data:
        purpose === "practice"
          ? { goals: "git-basics.init" }
          : { skillId: "git-basics", maxScore: 100 },
    });
  };
  const revisionOf = async (sid: string) =>
    (await server().fx.services.store.findSession(sid))!.policyRevision;
  /** A session with 5 goals mastered: its context offers the skill's assessment. */
  const assessed = async (learner: string) => {
    const { sid, ctx } = await server().d.sessionWithMastered(learner, 5);
    const capability = ctx.currentStep.assessmentCapability as string;
    assert.match(capability, /^cap1\./);
    return { sid, version: ctx.stateVersion as number, capability };
  };

  describe("practice capability: every position class, truncated, extended", () => {
    let sid: string;
    let token: string;
    before(async () => {
      ({ sid } = await server().d.sessionWithMastered("cap-practice", 2));
      token = await practiceDeck(sid);
    });
    for (const m of sealedTokenMutations)
      it(`refuses the practice capability: ${m.label}`, async () => {
        const mutated = m.apply(token);
        assert.notEqual(mutated, token);
        await assertRefusedUnwritten(db(), expectedOf(mutated), () => review(sid, mutated));
      });
    it("control: the genuine practice capability still grades a card", async () => {
      assertAccepted(await review(sid, token));
    });
  });

  describe("assessment capability: every position class, truncated, extended", () => {
    let a: Awaited<ReturnType<typeof assessed>>;
    before(async () => {
      a = await assessed("cap-assessment");
    });
    for (const m of sealedTokenMutations)
      it(`refuses the assessment capability: ${m.label}`, async () => {
        const mutated = m.apply(a.capability);
        await assertRefusedUnwritten(db(), expectedOf(mutated), () =>
          score(a.sid, a.version, mutated),
        );
      });
    it("control: the genuine assessment capability still records the score", async () => {
      assertAccepted(await score(a.sid, a.version, a.capability));
    });
  });

  describe("replay across learner, tool, arguments, lane, contract major", () => {
    let mine: Awaited<ReturnType<typeof assessed>>;
    let theirs: Awaited<ReturnType<typeof assessed>>;
    let myDeck: string;
    let theirDeck: string;
    before(async () => {
      mine = await assessed("cap-replay-mine");
      theirs = await assessed("cap-replay-theirs");
      myDeck = await practiceDeck(mine.sid);
      theirDeck = await practiceDeck(theirs.sid);
    });

    it("refuses another learner's practice capability on my session", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () => review(mine.sid, theirDeck)));
    it("refuses another learner's assessment capability on my session", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        score(mine.sid, mine.version, theirs.capability),
      ));
    it("refuses a practice capability where an assessment capability is due (other tool)", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        score(mine.sid, mine.version, myDeck),
      ));
    it("refuses an assessment capability where a practice capability is due (other tool)", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () => review(mine.sid, mine.capability)));
    it("refuses an assessment capability sent with another state version (other arguments)", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_STALE", () =>
        score(mine.sid, mine.version + 1, mine.capability),
      ));
    it("refuses my practice capability on my own session of another lane", async () => {
      const laneSid = await server().launchClaude("cap-replay-mine");
      await assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        review(laneSid, myDeck, server().claude),
      );
    });
    it("refuses my session and practice capability on another lane's endpoint", () =>
      assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () =>
        review(mine.sid, myDeck, server().claude),
      ));
    it("refuses my practice capability with my session of contract major 2", async () => {
      const v2Sid = await server().launchV2("cap-replay-mine");
      await assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        review(v2Sid, myDeck),
      );
    });
    it("refuses the practice write on contract major 2's endpoint (a tool it does not serve)", () =>
      assertRpcRefusedUnwritten(db(), -32602, () => review(mine.sid, myDeck, server().v2)));
    it("refuses a practice capability sealed under the previous policy revision", async () => {
      const older = sealedFor("practice", mine.sid, {
        policyRevision: (await revisionOf(mine.sid)) - 1,
        batchId: `pd${mine.version}`,
      });
      await assertRefusedUnwritten(db(), "CAPABILITY_STALE", () => review(mine.sid, older));
    });
    it("refuses an assessment capability sealed under the next policy revision", async () => {
      const newer = sealedFor("assessment", mine.sid, {
        policyRevision: (await revisionOf(mine.sid)) + 1,
        stateVersion: mine.version,
      });
      await assertRefusedUnwritten(db(), "CAPABILITY_STALE", () =>
        score(mine.sid, mine.version, newer),
      );
    });
    it("control: both of my genuine capabilities are still accepted", async () => {
      assertAccepted(await review(mine.sid, myDeck));
      // The grade moved the state version: the assessment is read again from a fresh context.
      const ctx = await server().d.context(mine.sid);
      assertAccepted(await score(mine.sid, ctx.stateVersion, ctx.currentStep.assessmentCapability));
    });
  });

  describe("single use and staleness after a write", () => {
    let a: Awaited<ReturnType<typeof assessed>>;
    let spentWith: string;
    before(async () => {
      a = await assessed("cap-single-use");
      spentWith = randomUUID();
      assertAccepted(await score(a.sid, a.version, a.capability, 80, spentWith));
    });
    it("refuses the spent assessment capability with another score", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_REPLAYED", () =>
        score(a.sid, a.version, a.capability, 20),
      ));
    it("refuses the spent assessment capability with the same score and a new request id", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_REPLAYED", () =>
        score(a.sid, a.version, a.capability, 80),
      ));
    it("control: the exact retry is answered from the stored result, nothing written", async () => {
      const before = await server().fx.db("receipts").count({ n: "*" });
      assertAccepted(await score(a.sid, a.version, a.capability, 80, spentWith));
      assert.deepEqual(await server().fx.db("receipts").count({ n: "*" }), before);
    });
    it("refuses a practice capability once a write moved the learner past its deck", async () => {
      const { sid, ctx } = await server().d.sessionWithMastered("cap-deck-moved", 2);
      const deck = await practiceDeck(sid);
      await server().d.master(ctx);
      await assertRefusedUnwritten(db(), "CAPABILITY_STALE", () => review(sid, deck));
    });
  });

  describe("expiry edges (the server clock frozen and moved)", () => {
    let sid: string;
    let deck: string;
    let mintedAt: number;
    let a: Awaited<ReturnType<typeof assessed>>;
    let assessmentAt: number;
    const at = (ms: number) => server().clock.freeze(ms);
    before(async () => {
      ({ sid } = await server().d.sessionWithMastered("cap-expiry", 2));
      mintedAt = server().clock.freeze();
      deck = await practiceDeck(sid);
      server().clock.release();
      a = await assessed("cap-expiry-assessment");
      assessmentAt = server().clock.freeze();
      const ctx = await server().d.context(a.sid);
      a = { ...a, capability: ctx.currentStep.assessmentCapability, version: ctx.stateVersion };
      server().clock.release();
    });
    after(() => server().clock.release());
    const practiceLife = capabilityLifetimeMs.practice;
    const assessmentLife = capabilityLifetimeMs.assessment;

    it("refuses a practice capability exactly at its expiry", () => {
      at(mintedAt + practiceLife);
      return assertRefusedUnwritten(db(), "CAPABILITY_STALE", () => review(sid, deck));
    });
    it("refuses a practice capability one second past its expiry", () => {
      at(mintedAt + practiceLife + 1000);
      return assertRefusedUnwritten(db(), "CAPABILITY_STALE", () => review(sid, deck));
    });
    it("refuses a practice capability on an instance whose clock runs a day ahead", () => {
      at(mintedAt + 86_400_000);
      return assertRefusedUnwritten(db(), "CAPABILITY_STALE", () => review(sid, deck));
    });
    it("refuses an assessment capability exactly at its expiry", () => {
      at(assessmentAt + assessmentLife);
      return assertRefusedUnwritten(db(), "CAPABILITY_STALE", () =>
        score(a.sid, a.version, a.capability),
      );
    });
    it("refuses an assessment capability one second past its expiry", () => {
      at(assessmentAt + assessmentLife + 1000);
      return assertRefusedUnwritten(db(), "CAPABILITY_STALE", () =>
        score(a.sid, a.version, a.capability),
      );
    });
    it("control: one millisecond before expiry, and on an instance a minute behind, both are accepted", async () => {
      at(mintedAt - 60_000);
      assertAccepted(await review(sid, deck));
      at(assessmentAt + assessmentLife - 1);
      assertAccepted(await score(a.sid, a.version, a.capability));
    });
  });

  describe("a policy revision bump (last: it retires every session of this server)", () => {
    let a: Awaited<ReturnType<typeof assessed>>;
    let deck: string;
    before(async () => {
      a = await assessed("cap-bump");
      deck = await practiceDeck(a.sid);
      await server().bumpPolicyRevision();
    });
    it("refuses a practice capability of a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () => review(a.sid, deck)));
    it("refuses an assessment capability of a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        score(a.sid, a.version, a.capability),
      ));
  });
});
