import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { type CoachClient, connectClient } from "../runtime/support/mcp-clients.js";
import { flipChar } from "./support/mutations.js";
import {
  assertAccepted,
  assertRefusedUnwritten,
  assertRpcRefusedUnwritten,
  databaseRows,
  era,
  useSecurityServer,
} from "./support/security-server.js";

/** The contract's ClientRequestId (`format: uuid`), checked as the contract's own format. */
const isClientRequestId = (() => {
  const ajv = new Ajv2020({ strict: true });
  addFormats.default(ajv, ["uuid"]);
  return ajv.compile({ type: "string", format: "uuid" });
})();

/** Ways a client could alter the idempotency key of a write it retries. */
const keyMutations: readonly { label: string; apply(key: string): string }[] = [
  { label: "bit flip in its first character", apply: (k) => flipChar(k, 0) },
  { label: "bit flip in its first separator", apply: (k) => flipChar(k, 8) },
  { label: "bit flip in its middle character", apply: (k) => flipChar(k, 16, 1) },
  { label: "bit flip in its last character", apply: (k) => flipChar(k, 35, 2) },
  {
    label: "another digit in its last group",
    apply: (k) => k.slice(0, -1) + (k.endsWith("0") ? "1" : "0"),
  },
  { label: "in upper case", apply: (k) => k.toUpperCase() },
  { label: "as a URN", apply: (k) => `urn:uuid:${k}` },
  { label: "truncated by one character", apply: (k) => k.slice(0, -1) },
  { label: "without its hyphens", apply: (k) => k.replaceAll("-", "") },
  { label: "extended by one character", apply: (k) => `${k}0` },
  { label: "in braces", apply: (k) => `{${k}}` },
  { label: "with a trailing space", apply: (k) => `${k} ` },
];

/**
 * The idempotency key (clientRequestId) makes a retried write answer the stored result instead of
 * applying twice. A key may only ever replay the one request it was first used for, for the learner,
 * session, lane and contract major it was used on, and only while its record lives: everything else
 * is refused with its exact code and writes nothing — in particular it never returns the stored
 * answer to anyone else and never applies a write twice.
 */
describe("security: idempotency keys (G6)", () => {
  const server = useSecurityServer();
  const db = () => server().fx.db;
  let intruder: CoachClient;
  before(async () => {
    intruder = await connectClient(server().fx, era, {
      authorize: () => server().fx.token("idempotency-intruder"),
    });
  });
  after(() => intruder?.close());

  /** A goal completed with key `clientRequestId`: the exact request and its stored answer. */
  const completed = async (learner: string) => {
    const sid = await server().fx.newSession(learner);
    const ctx = await server().d.choose(await server().d.context(sid));
    const args = {
      learningSessionId: sid,
      expectedStateVersion: ctx.stateVersion as number,
      clientRequestId: randomUUID(),
      decision: "achieved",
    };
    const first = await complete(args);
    assertAccepted(first);
    return { sid, args, first };
  };
  const complete = (args: Record<string, unknown>, client: CoachClient = server().client) =>
    client.callTool("complete_skillpilot_goal", args);

  describe("the key reused for another request (single use per request)", () => {
    let w: Awaited<ReturnType<typeof completed>>;
    before(async () => {
      w = await completed("idem-reuse");
    });
    it("refuses the key with another decision", () =>
      assertRefusedUnwritten(db(), "IDEMPOTENCY_KEY_REUSED", () =>
        complete({ ...w.args, decision: "needsMorePractice" }),
      ));
    it("refuses the key with the next state version", () =>
      assertRefusedUnwritten(db(), "IDEMPOTENCY_KEY_REUSED", () =>
        complete({ ...w.args, expectedStateVersion: w.args.expectedStateVersion + 1 }),
      ));
    it("refuses the key with another session of the same learner", async () => {
      const sid = await server().fx.newSession("idem-reuse");
      await assertRefusedUnwritten(db(), "STATE_CONFLICT", () =>
        complete({ ...w.args, learningSessionId: sid }),
      );
    });
    it("refuses the key on another write tool (no stored answer there, the state moved on)", () =>
      assertRefusedUnwritten(db(), "STATE_CONFLICT", () =>
        server().client.callTool("choose_skillpilot_option", {
          learningSessionId: w.sid,
          expectedStateVersion: w.args.expectedStateVersion,
          clientRequestId: w.args.clientRequestId,
          // The lock refuses the stale version before the option is opened.
          option: `opt1.k2026a.${"A".repeat(64)}`,
        }),
      ));
    it("refuses the same write again under a fresh key (it is not applied twice)", () =>
      assertRefusedUnwritten(db(), "STATE_CONFLICT", () =>
        complete({ ...w.args, clientRequestId: randomUUID() }),
      ));
    it("control: the exact retry gets the stored answer byte for byte and writes nothing", async () => {
      const before = await databaseRows(db());
      assert.deepEqual(await complete(w.args), w.first);
      assert.deepEqual(await databaseRows(db()), before);
    });
  });

  describe("the key altered in a retry (never the stored answer, never a second write)", () => {
    let w: Awaited<ReturnType<typeof completed>>;
    before(async () => {
      w = await completed("idem-mutations");
    });
    for (const m of keyMutations)
      it(`refuses a retry whose key is ${m.label}`, async () => {
        const key = m.apply(w.args.clientRequestId);
        assert.notEqual(key, w.args.clientRequestId);
        const code = isClientRequestId(key) ? "STATE_CONFLICT" : "INVALID_INPUT";
        await assertRefusedUnwritten(db(), code, () =>
          complete({ ...w.args, clientRequestId: key }),
        );
      });
  });

  describe("the exact retry replayed across learner, lane, contract major", () => {
    let w: Awaited<ReturnType<typeof completed>>;
    before(async () => {
      w = await completed("idem-replay");
    });
    it("refuses the exact retry under another learner's token (the stored answer stays private)", () =>
      assertRefusedUnwritten(db(), "SESSION_SUBJECT_MISMATCH", () => complete(w.args, intruder)));
    it("refuses the exact retry on another lane's endpoint", () =>
      assertRefusedUnwritten(db(), "SESSION_NOT_FOUND", () => complete(w.args, server().claude)));
    it("refuses the exact retry on contract major 2's endpoint (a tool it does not serve)", () =>
      assertRpcRefusedUnwritten(db(), -32602, () => complete(w.args, server().v2)));
    it("refuses the key on contract major 2's write tool with the major-1 session", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        server().v2.callTool("mark_skillpilot_progress_reviewed", {
          learningSessionId: w.sid,
          expectedStateVersion: w.args.expectedStateVersion,
          clientRequestId: w.args.clientRequestId,
        }),
      ));
    it("refuses the key on a major-2 session with the major-1 write tool", async () => {
      const v2Sid = await server().launchV2("idem-replay");
      await assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () =>
        complete({ ...w.args, learningSessionId: v2Sid }),
      );
    });
  });

  describe("expiry edges of the stored answer (the server clock frozen and moved)", () => {
    let w: Awaited<ReturnType<typeof completed>>;
    let storedAt: number;
    let ttlMs: number;
    before(async () => {
      storedAt = server().clock.freeze();
      w = await completed("idem-expiry");
      ttlMs = server().fx.services.config.idempotencyTtlSeconds * 1000;
    });
    after(() => server().clock.release());
    it("refuses the exact retry exactly when its record expires (a new write, at a stale version)", () => {
      server().clock.freeze(storedAt + ttlMs);
      return assertRefusedUnwritten(db(), "STATE_CONFLICT", () => complete(w.args));
    });
    it("refuses the exact retry one second after its record expired", () => {
      server().clock.freeze(storedAt + ttlMs + 1000);
      return assertRefusedUnwritten(db(), "STATE_CONFLICT", () => complete(w.args));
    });
    it("refuses the exact retry on an instance whose clock runs a day ahead", () => {
      server().clock.freeze(storedAt + 86_400_000);
      return assertRefusedUnwritten(db(), "STATE_CONFLICT", () => complete(w.args));
    });
    it("control: one millisecond before expiry the exact retry gets the stored answer", async () => {
      server().clock.freeze(storedAt + ttlMs - 1);
      const before = await databaseRows(db());
      assert.deepEqual(await complete(w.args), w.first);
      assert.deepEqual(await databaseRows(db()), before);
    });
  });

  describe("a policy revision bump (last: it retires every session of this server)", () => {
    let w: Awaited<ReturnType<typeof completed>>;
    before(async () => {
      w = await completed("idem-bump");
      await server().bumpPolicyRevision();
    });
    it("refuses the exact retry of a write made under the previous revision", () =>
      assertRefusedUnwritten(db(), "SESSION_VERSION_UNAVAILABLE", () => complete(w.args)));
  });
});
