import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mintOptionPayload } from "../../runtime/capability/index.js";
import { OPTION_LIFETIME_MS } from "../../runtime/domain/option-payloads.js";
import { schemaPattern } from "../runtime/capability/capability-fixtures.js";
import type { CoachClient } from "../runtime/support/mcp-clients.js";
import { sealedTokenMutations } from "./support/mutations.js";
import {
  assertAccepted,
  assertRefusedUnwritten,
  assertRpcRefusedUnwritten,
  useSecurityServer,
} from "./support/security-server.js";

/**
 * Option payloads are sealed choices the model copies from the latest context into
 * choose_skillpilot_option: each is mutated in every byte position class, replayed across learner,
 * tool, arguments, lane, contract major and policy revision, used twice, and presented at its
 * expiry edges. Every case is refused with its exact code and writes nothing.
 */
describe("security: option payloads (C14)", () => {
  const server = useSecurityServer();
  const db = () => server().fx.db;
  const optionPattern = schemaPattern("OptionPayload");

  /** A fresh session's context: its state version and the payloads of its options. */
  const offered = async (learner: string) => {
    const sid = await server().fx.newSession(learner);
    const ctx = await server().d.context(sid);
    const options = ctx.options.map((o: { payload: string }) => o.payload) as string[];
    assert.ok(options.length >= 2, "the context offers a choice");
    return { sid, version: ctx.stateVersion as number, options };
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
  /** An option payload for `sid` sealed with the server's own keys under chosen claims. */
  const sealedFor = (sid: string, version: number, policyRevision: number) =>
    mintOptionPayload(server().fx.services.keyring, {
      learningSessionId: sid,
      stateVersion: version,
      policyRevision,
      expiresAt: new Date(server().fx.services.now().getTime() + 3600_000),
      choice: { kind: "focusSkill", skillId: "git-basics" },
    });
  const revisionOf = async (sid: string) =>
    (await server().fx.services.store.findSession(sid))!.policyRevision;

  describe("every position class, truncated, extended", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      s = await offered("opt-mutations");
    });
    for (const m of sealedTokenMutations)
      it(`refuses the option payload: ${m.label}`, async () => {
        const mutated = m.apply(s.options[0]);
        assert.notEqual(mutated, s.options[0]);
        const code = optionPattern.test(mutated) ? "CAPABILITY_INVALID" : "INVALID_INPUT";
        await assertRefusedUnwritten(db(), code, () => choose(s.sid, s.version, mutated));
      });
    it("control: the genuine option payload still chooses", async () => {
      assertAccepted(await choose(s.sid, s.version, s.options[0]));
    });
  });

  describe("replay across learner, tool, arguments, lane, contract major, policy revision", () => {
    let mine: Awaited<ReturnType<typeof offered>>;
    let theirs: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      mine = await offered("opt-replay-mine");
      theirs = await offered("opt-replay-theirs");
    });
    it("refuses another learner's option on my session", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        choose(mine.sid, mine.version, theirs.options[0]),
      ));
    it("refuses a capability sent as an option (other token family)", async () => {
      const { sid } = await server().d.sessionWithMastered("opt-replay-capability", 2);
      const started = await server().client.callTool("start_skillpilot_memory_practice", {
        learningSessionId: sid,
      });
      const capability = (started._meta as Record<string, { practiceCapability: string }>)[
        "skillpilot/memoryPractice"
      ].practiceCapability;
      await assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        choose(mine.sid, mine.version, capability),
      );
    });
    it("refuses an option sent as a practice capability (other tool)", () =>
      assertRefusedUnwritten(db(), "INVALID_INPUT", () =>
        server().client.callTool("review_skillpilot_memory_practice_card", {
          learningSessionId: mine.sid,
          practiceCapability: mine.options[0],
          clientRequestId: randomUUID(),
          grade: "good",
        }),
      ));
    it("refuses an option with a capability's prefix (the family is authenticated)", () =>
      assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        server().client.callTool("review_skillpilot_memory_practice_card", {
          learningSessionId: mine.sid,
          practiceCapability: mine.options[0].replace(/^opt1/, "cap1"),
          clientRequestId: randomUUID(),
          grade: "good",
        }),
      ));
    it("refuses my option with another expectedStateVersion (other arguments)", () =>
      assertRefusedUnwritten(db(), "STATE_CONFLICT", () =>
        choose(mine.sid, mine.version + 1, mine.options[0]),
      ));
    it("refuses my option on my own session of another lane", async () => {
      const laneSid = await server().launchClaude("opt-replay-mine");
      const ctx = await server().claude.callTool("get_skillpilot_learning_context", {
        learningSessionId: laneSid,
      });
      const version = (ctx.structuredContent as { stateVersion: number }).stateVersion;
      await assertRefusedUnwritten(db(), "CAPABILITY_INVALID", () =>
        choose(laneSid, version, mine.options[0], server().claude),
      );
    });
    it("refuses my session and option on another lane's endpoint", () =>
      assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () =>
        choose(mine.sid, mine.version, mine.options[0], server().claude),
      ));
    it("refuses the choice on contract major 2's endpoint (a tool it does not serve)", () =>
      assertRpcRefusedUnwritten(db(), -32602, () =>
        choose(mine.sid, mine.version, mine.options[0], server().v2),
      ));
    it("refuses my option with my session of contract major 2", async () => {
      const v2Sid = await server().launchV2("opt-replay-mine");
      await assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        choose(v2Sid, mine.version, mine.options[0]),
      );
    });
    it("refuses an option sealed under the previous policy revision", async () => {
      const older = sealedFor(mine.sid, mine.version, (await revisionOf(mine.sid)) - 1);
      await assertRefusedUnwritten(db(), "OPTION_STALE", () =>
        choose(mine.sid, mine.version, older),
      );
    });
    it("refuses an option sealed under the next policy revision", async () => {
      const newer = sealedFor(mine.sid, mine.version, (await revisionOf(mine.sid)) + 1);
      await assertRefusedUnwritten(db(), "OPTION_STALE", () =>
        choose(mine.sid, mine.version, newer),
      );
    });
    it("control: my genuine option still chooses", async () => {
      assertAccepted(await choose(mine.sid, mine.version, mine.options[0]));
    });
  });

  describe("single use: an option set is spent by the write it makes", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    let after: number;
    before(async () => {
      s = await offered("opt-single-use");
      const chosen = await choose(s.sid, s.version, s.options[0]);
      assertAccepted(chosen);
      after = (chosen.structuredContent as { stateVersion: number }).stateVersion;
      assert.ok(after > s.version);
    });
    it("refuses the chosen option again at the new state version", () =>
      assertRefusedUnwritten(db(), "OPTION_STALE", () => choose(s.sid, after, s.options[0])));
    it("refuses another option of the spent set at the new state version", () =>
      assertRefusedUnwritten(db(), "OPTION_STALE", () => choose(s.sid, after, s.options[1])));
    it("refuses the chosen option again at its own, now old, state version", () =>
      assertRefusedUnwritten(db(), "STATE_CONFLICT", () => choose(s.sid, s.version, s.options[0])));
  });

  describe("expiry edges (the server clock frozen and moved)", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    let mintedAt: number;
    before(async () => {
      mintedAt = server().clock.freeze();
      s = await offered("opt-expiry");
    });
    after(() => server().clock.release());
    it("refuses an option exactly at its expiry", () => {
      server().clock.freeze(mintedAt + OPTION_LIFETIME_MS);
      return assertRefusedUnwritten(db(), "OPTION_STALE", () =>
        choose(s.sid, s.version, s.options[0]),
      );
    });
    it("refuses an option one second past its expiry", () => {
      server().clock.freeze(mintedAt + OPTION_LIFETIME_MS + 1000);
      return assertRefusedUnwritten(db(), "OPTION_STALE", () =>
        choose(s.sid, s.version, s.options[0]),
      );
    });
    it("refuses an option on an instance whose clock runs a day ahead", () => {
      server().clock.freeze(mintedAt + 86_400_000);
      return assertRefusedUnwritten(db(), "OPTION_STALE", () =>
        choose(s.sid, s.version, s.options[1]),
      );
    });
    it("control: one millisecond before its expiry the option chooses", async () => {
      server().clock.freeze(mintedAt + OPTION_LIFETIME_MS - 1);
      assertAccepted(await choose(s.sid, s.version, s.options[0]));
    });
  });

  describe("a policy revision bump (last: it retires every session of this server)", () => {
    let s: Awaited<ReturnType<typeof offered>>;
    before(async () => {
      s = await offered("opt-bump");
      await server().bumpPolicyRevision();
    });
    it("refuses an option of a session launched under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        choose(s.sid, s.version, s.options[0]),
      ));
  });
});
