import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  generateKeyringConfig,
  keyringFromConfig,
  mintCapability,
} from "../../../runtime/capability/index.js";
import { LineSource } from "../../../runtime/domain/line-source.js";
import { openSession } from "../../../runtime/domain/session-gate.js";
import { checkCapability, issueCapability } from "../../../runtime/domain/workflow-capabilities.js";
import type { CallContext, HandlerDeps } from "../../../runtime/domain/call-context.js";
import type { SessionRecord } from "../../../runtime/domain/ports/coach-store.js";
import { repoRoot } from "../support/runtime-fixture.js";

describe("the contract line in force (L11)", () => {
  let dir: string;
  let file: string;
  let base: Record<string, unknown>;
  /** Write the line and date it an hour back, so the cache holds it after one read. */
  const writeOld = async (policyRevision: number, extra: Record<string, unknown> = {}) => {
    await writeFile(file, JSON.stringify({ ...base, policyRevision, ...extra }));
    const past = new Date(Date.now() - 3600_000);
    await utimes(file, past, past);
  };

  before(async () => {
    base = JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8")) as Record<
      string,
      unknown
    >;
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-line-source-"));
    file = path.join(dir, "line.json");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it(
    "L11: keeps an unchanged line in memory (the same object), and re-reads it " + "after any edit",
    async () => {
      await writeOld(4);
      const source = new LineSource(file);
      const first = source.current();
      assert.equal(first?.policyRevision, 4);
      assert.equal(source.current(), first, "an unchanged file is not read again");
      await writeOld(5); // same size, mtime forced back: the changed ctime still reveals the edit
      assert.equal(source.current()?.policyRevision, 5);
      // written just now, no utimes
      await writeFile(file, JSON.stringify({ ...base, policyRevision: 6 }));
      assert.equal(source.current()?.policyRevision, 6);
      assert.equal(source.policyRevision(), 6);
    },
  );

  it(
    "L11: a missing or invalid line fails closed (undefined; policyRevision() " +
      "throws TEMPORARILY_UNAVAILABLE)",
    async () => {
      const source = new LineSource(path.join(dir, "absent.json"));
      assert.equal(source.current(), undefined);
      assert.throws(() => source.policyRevision(), { code: "TEMPORARILY_UNAVAILABLE" });
      // violates the WARN invariant
      await writeOld(7, { newSessionPolicy: "WARN", successor: null });
      assert.equal(new LineSource(file).current(), undefined);
    },
  );

  it(
    "L11, C11: the session gate reads the line once per call; capabilities are " +
      "minted and checked under that revision, not the launch revision",
    async () => {
      await writeOld(8);
      const keyring = keyringFromConfig(generateKeyringConfig("k1"));
      const launched = {
        sessionId: "sps_line-source-test-session-0001",
        learnerId: 1,
        locale: "en",
        contractMajor: 1,
        workflowVersion: "wf",
        curriculumRevision: "cr",
        policyRevision: 8,
        createdAt: "",
        expiresAt: Date.now() + 3600_000,
        subject: { issuer: "https://issuer.test", sub: "ann" },
      } as SessionRecord;
      const deps = {
        keyring,
        store: { findSession: async () => launched },
        curriculum: { revision: "cr" },
      } as unknown as HandlerDeps;
      const contract = { contractMajor: 1, workflowVersion: "wf", line: new LineSource(file) };
      const gate = async () => {
        const caller = {
          issuer: "https://issuer.test",
          subject: "ann",
          clientId: "c",
          scopes: [],
          expiresAt: 0,
        };
        const ctx: CallContext = { deps, contract, now: new Date(), caller };
        const session = await openSession(launched.sessionId, ctx);
        assert.equal(ctx.session, session, "the gated session is kept on the call context");
        return { deps, session, now: ctx.now };
      };
      const at8 = await gate();
      assert.equal(at8.session.policyRevisionInForce, 8);
      const token = issueCapability(at8, "batch", { batchId: "b1" });
      assert.equal(checkCapability(at8, "batch", token, { batchId: "b1" }).pr, 8);
      // Within one call the revision is fixed, even if the file changes meanwhile.
      await writeOld(9);
      assert.equal(checkCapability(at8, "batch", token, { batchId: "b1" }).pr, 8);
      // The next call runs under 9: a session launched under 8 is retired by the gate itself ...
      await assert.rejects(gate(), { code: "SESSION_VERSION_UNAVAILABLE" });
      // ... and a capability minted under 8 is stale for any call under 9.
      const at9 = {
        ...at8,
        session: { ...at8.session, policyRevision: 9, policyRevisionInForce: 9 },
      };
      assert.throws(() => checkCapability(at9, "batch", token, { batchId: "b1" }), {
        code: "CAPABILITY_STALE",
        reason: "policy-revision",
      });
      assert.equal(
        checkCapability(at9, "batch", issueCapability(at9, "batch", { batchId: "b1" }), {
          batchId: "b1",
        }).pr,
        9,
        "new ones are minted under the new revision",
      );
      const older = mintCapability(keyring, {
        purpose: "batch",
        learningSessionId: launched.sessionId,
        policyRevision: 8,
        expiresAt: new Date(Date.now() + 60_000),
        batchId: "b1",
      });
      assert.throws(() => checkCapability(at9, "batch", older, { batchId: "b1" }), {
        code: "CAPABILITY_STALE",
      });
    },
  );
});
