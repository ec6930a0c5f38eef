import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { randomUUID } from "node:crypto";
import { toolDescriptors } from "../../generated/tools.gen.js";
import { contractV2 } from "../fixtures/contract-v2/contract.js";
import { toolDescriptors as v2Descriptors } from "../fixtures/contract-v2/generated/tools.gen.js";
import {
  connectClient,
  type CoachClient,
  eras,
  errorCode,
  rpcErrorCode,
} from "../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

const run = promisify(execFile);
const fixtureRoot = path.join(repoRoot, "test/fixtures/contract-v2");

describe("two contract majors side by side in one server (L11, L12.4, §10.1)", function () {
  this.timeout(120_000);
  let fx: RuntimeFixture;
  let dir: string;
  let v2Line: string;
  let baseV2: Record<string, unknown>;
  const endpoint = (major: number) => ({
    mcpUrl: `${fx.server.origin}/internal/openai/v${major}/mcp`,
    authorize: fx.authorize,
  });

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-majors-"));
    v2Line = path.join(dir, "line-v2.json");
    baseV2 = JSON.parse(await readFile(path.join(fixtureRoot, "release/line.json"), "utf8"));
    await writeFile(v2Line, JSON.stringify(baseV2));
    fx = await startFixture({}, { contracts: [contractV2(v2Line)] });
  });
  after(async () => {
    await fx?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("the v2 fixture's generated code is what its schemas produce", async () => {
    const { stdout } = await run(process.execPath, [
      "--import",
      "tsx",
      path.join(repoRoot, "bin/skillpilot.ts"),
      "-C",
      fixtureRoot,
      "generate",
      "--check",
    ]);
    assert.match(stdout, /up to date/);
  });

  for (const era of eras)
    describe(era, () => {
      let v1: CoachClient;
      let v2: CoachClient;
      before(async () => {
        v1 = await connectClient(endpoint(1), era);
        v2 = await connectClient(endpoint(2), era);
      });
      after(async () => {
        await v1?.close();
        await v2?.close();
      });

      it("each internal adapter lists its own contract's tools; the public /mcp is the primary", async () => {
        const names = async (c: CoachClient) =>
          (await c.listTools()).tools.map((t) => t.name).sort();
        assert.deepEqual(await names(v1), toolDescriptors.map((t) => t.name).sort());
        assert.deepEqual(await names(v2), v2Descriptors.map((t) => t.name).sort());
        const pub = await connectClient(fx, era);
        try {
          assert.deepEqual(await names(pub), await names(v1));
        } finally {
          await pub.close();
        }
        const health = (await (await fetch(`${fx.server.origin}/healthz`)).json()) as {
          contractMajor: number;
          contractMajors: number[];
        };
        assert.equal(health.contractMajor, 1);
        assert.deepEqual(health.contractMajors, [1, 2]);
      });

      it("a v2 session works on v2 tools, with the v2 write path: receipt, lock, exact retry (G5, G6)", async () => {
        const launched = await fx.launch({ learner: `v2-${era}`, locale: "en", contractMajor: 2 });
        assert.equal(launched.status, 201, JSON.stringify(launched.body));
        const sid = String(launched.body.learningSessionId);
        const row = await fx.db("sessions").where({ session_id: sid }).first();
        assert.equal(row.contract_major, 2);
        assert.equal(row.policy_revision, baseV2.policyRevision);
        const overview = await v2.callTool("get_skillpilot_progress_overview", {
          learningSessionId: sid,
        });
        assert.equal(overview.isError, undefined, JSON.stringify(overview.content));
        assert.equal(overview.structuredContent?.contractMajor, 2);
        const args = {
          learningSessionId: sid,
          expectedStateVersion: overview.structuredContent?.stateVersion,
          clientRequestId: randomUUID(),
        };
        const first = await v2.callTool("mark_skillpilot_progress_reviewed", args);
        assert.equal(first.isError, undefined, JSON.stringify(first.content));
        const receipt = first.structuredContent?.receipt as { operation: string };
        assert.equal(receipt.operation, "mark_skillpilot_progress_reviewed");
        assert.deepEqual(await v2.callTool("mark_skillpilot_progress_reviewed", args), first);
        const stale = await v2.callTool("mark_skillpilot_progress_reviewed", {
          ...args,
          clientRequestId: randomUUID(),
        });
        assert.equal(errorCode(stale), "STATE_CONFLICT");
      });

      it("a v1 session cannot call v2 tools, nor a v2 session v1 tools; another major's tool is unknown", async () => {
        const v1Session = await fx.newSession(`v1-${era}`);
        const v2Session = String(
          (await fx.launch({ learner: `v2b-${era}`, locale: "en", contractMajor: 2 })).body
            .learningSessionId,
        );
        const crossed = await v2.callTool("get_skillpilot_progress_overview", {
          learningSessionId: v1Session,
        });
        assert.equal(errorCode(crossed), "SESSION_VERSION_UNAVAILABLE");
        const back = await v1.callTool("get_skillpilot_learning_context", {
          learningSessionId: v2Session,
        });
        assert.equal(errorCode(back), "SESSION_VERSION_UNAVAILABLE");
        await assert.rejects(
          v2.callTool("get_skillpilot_learning_context", { learningSessionId: v1Session }),
          (error: unknown) => rpcErrorCode(error) === -32602,
        );
        const own = await v1.callTool("get_skillpilot_learning_context", {
          learningSessionId: v1Session,
        });
        assert.equal(own.isError, undefined);
      });
    });

  it("each major has its own line: BLOCK on v2 refuses v2 launches only; a v2 revision bump retires v2 sessions only, with its own floor (L11)", async () => {
    const v1Session = await fx.newSession("line-v1");
    const v2Session = String(
      (await fx.launch({ learner: "line-v2", locale: "en", contractMajor: 2 })).body
        .learningSessionId,
    );
    await writeFile(v2Line, JSON.stringify({ ...baseV2, newSessionPolicy: "BLOCK" }));
    const blocked = await fx.launch({ learner: "blocked-v2", locale: "en", contractMajor: 2 });
    assert.equal(blocked.status, 503);
    assert.equal(blocked.body.code, "TEMPORARILY_UNAVAILABLE");
    assert.equal((await fx.launch({ learner: "still-v1", locale: "en" })).status, 201);
    await writeFile(
      v2Line,
      JSON.stringify({ ...baseV2, policyRevision: Number(baseV2.policyRevision) + 1 }),
    );
    const era = eras[0];
    const v1 = await connectClient(endpoint(1), era);
    const v2 = await connectClient(endpoint(2), era);
    try {
      const retired = await v2.callTool("get_skillpilot_progress_overview", {
        learningSessionId: v2Session,
      });
      assert.equal(errorCode(retired), "SESSION_VERSION_UNAVAILABLE");
      const unaffected = await v1.callTool("get_skillpilot_learning_context", {
        learningSessionId: v1Session,
      });
      assert.equal(unaffected.isError, undefined);
    } finally {
      await v1.close();
      await v2.close();
    }
    // The floor never goes back: the bumped revision stays the base for the tests after this one.
    baseV2 = { ...baseV2, policyRevision: Number(baseV2.policyRevision) + 1 };
    await writeFile(v2Line, JSON.stringify(baseV2));
    const floors = await fx
      .db("server_state")
      .whereIn("key", ["policy_revision_floor", "policy_revision_floor:v2"]);
    const floorOf = (key: string) => Number(floors.find((f) => f.key === key)?.value);
    await fx.services.stateGuard?.floor.flush();
    assert.ok(floorOf("policy_revision_floor:v2") >= Number(baseV2.policyRevision));
    assert.ok(floorOf("policy_revision_floor") >= 3);
  });

  it("a launch for a major the server does not serve is refused, nothing written", async () => {
    const before = Number((await fx.db("sessions").count({ n: "*" }))[0].n);
    const refused = await fx.launch({ learner: "nobody", locale: "en", contractMajor: 7 });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, "INVALID_INPUT");
    assert.equal(Number((await fx.db("sessions").count({ n: "*" }))[0].n), before);
  });
});
