import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateKeyringConfig, keyringFromConfig, mintCapability } from "../../../runtime/capability/index.js";
import { LineSource } from "../../../runtime/domain/line-source.js";
import { checkCapability, issueCapability } from "../../../runtime/domain/workflow-capabilities.js";
import type { RuntimeServices } from "../../../runtime/services.js";
import type { SessionRecord } from "../../../runtime/store/store.js";
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
    base = JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8")) as Record<string, unknown>;
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-line-source-"));
    file = path.join(dir, "line.json");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("L11: keeps an unchanged line in memory (the same object), and re-reads it after any edit", async () => {
    await writeOld(4);
    const source = new LineSource(file);
    const first = source.current();
    assert.equal(first?.policyRevision, 4);
    assert.equal(source.current(), first, "an unchanged file is not read again");
    await writeOld(5); // same size, mtime forced back: the changed ctime still reveals the edit
    assert.equal(source.current()?.policyRevision, 5);
    await writeFile(file, JSON.stringify({ ...base, policyRevision: 6 })); // written just now, no utimes
    assert.equal(source.current()?.policyRevision, 6);
    assert.equal(source.policyRevision(), 6);
  });

  it("L11: a missing or invalid line fails closed (undefined; policyRevision() throws TEMPORARILY_UNAVAILABLE)", async () => {
    const source = new LineSource(path.join(dir, "absent.json"));
    assert.equal(source.current(), undefined);
    assert.throws(() => source.policyRevision(), { code: "TEMPORARILY_UNAVAILABLE" });
    await writeOld(7, { newSessionPolicy: "WARN", successor: null }); // violates the WARN invariant
    assert.equal(new LineSource(file).current(), undefined);
  });

  it("L11, C11: capabilities are checked against the line's current policyRevision, not the one the session was launched under", async () => {
    await writeOld(8);
    const keyring = keyringFromConfig(generateKeyringConfig("k1"));
    const services = { keyring, line: new LineSource(file) } as unknown as RuntimeServices;
    const session = { sessionId: "sps_line-source-test-session-0001", policyRevision: 8 } as SessionRecord;
    const now = new Date();
    const scope = { services, session, now };
    const token = issueCapability(scope, "batch", { batchId: "b1" });
    assert.equal(checkCapability(scope, "batch", token, { batchId: "b1" }).pr, 8);
    await writeOld(9);
    assert.throws(() => checkCapability(scope, "batch", token, { batchId: "b1" }), { code: "CAPABILITY_STALE", reason: "policy-revision" });
    assert.equal(checkCapability(scope, "batch", issueCapability(scope, "batch", { batchId: "b1" }), { batchId: "b1" }).pr, 9, "new ones are minted under the new revision");
    const older = mintCapability(keyring, { purpose: "batch", learningSessionId: session.sessionId, policyRevision: 8, expiresAt: new Date(now.getTime() + 60_000), batchId: "b1" });
    assert.throws(() => checkCapability(scope, "batch", older, { batchId: "b1" }), { code: "CAPABILITY_STALE" });
  });
});
