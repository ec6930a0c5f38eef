import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import { createAjv } from "../../json-schema/ajv.js";
import { coachHandlers } from "../../runtime/domain/handlers/index.js";
import type { ServeOptions } from "../../runtime/served-contracts.js";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import { runCli } from "../support/run-cli.js";
import type { Wire } from "../support/wire.js";
import type { ClientProfile } from "../../runtime/auth/client-profiles.js";
import { createTestIssuer, testConfidentialProfile } from "../runtime/support/test-issuer.js";
import {
  cli,
  copyProject,
  editJson,
  regenerate,
  removeProject,
} from "../release/support/temp-project.js";
import { activeGoal } from "./support/active-goal.js";
import { publishedProject, storeOverrides } from "./support/evolution-project.js";
import {
  contractRevision,
  type ContractRevision,
  editTool,
  replacedCompleteGoal,
} from "./support/contract-revision.js";

const ajv = createAjv({ strict: false });
const valid = (schema: unknown, value: unknown) => ajv.validate(schema as object, value) as boolean;

// The definitions hosts approved: the contract as published (this repository's snapshot).
const published = (
  JSON.parse(await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8")) as {
    tools: Wire[];
  }
).tools;
const definitionOf = (tools: Wire[], name: string) => tools.find((t) => t.name === name)!;

/** Revision B: an optional input added (MINOR): the published definition stays a subset. */
const withOptionalInput = () =>
  contractRevision((root) =>
    editTool(root, "get_skillpilot_learning_context", (d) => {
      d.input.properties.detail = {
        description: "How much of the context to describe in the concise text summary.",
        enum: ["brief", "full"],
      };
    }),
  );

const withReplacement = replacedCompleteGoal;

const asOld = (decision: unknown) => (decision === "mastered" ? "achieved" : "needsMorePractice");
const asNew = (decision: unknown) => (decision === "achieved" ? "mastered" : "practiceMore");

/** The backend of revision C: the new tool's handler, and the adapter the old name runs through. */
const replacementServing = (
  revision: ContractRevision,
  mapInput: (decision: unknown) => string = asNew,
): ServeOptions => ({
  contract: revision.contract,
  handlers: {
    ...coachHandlers,
    complete_skillpilot_active_goal: (input: Wire, ctx: never) =>
      coachHandlers.complete_skillpilot_goal({ ...input, decision: asOld(input.decision) }, ctx),
  } as never,
  adapters: {
    complete_skillpilot_goal: {
      input: (input: Wire) => ({ ...input, decision: mapInput(input.decision) }),
      output: (output: Wire) => output,
    },
  } as never,
});

/** What is written, read from the store the server uses (SQLite file or PostgreSQL). */
const footprint = async (db: Knex) => ({
  receipts: Number((await db("receipts").count({ n: "*" }))[0].n),
  versions: Number((await db("learner_state").sum({ v: "state_version" }))[0].v),
});

for (const store of ["SQLite", "PostgreSQL"] as const)
  describe(`contract evolution on one server, ${store} (§10.1, §10.2, L6, L14)`, function () {
    this.timeout(180_000);
    let pg: ThrowawayPostgres | undefined;
    const overrides = () => storeOverrides(pg);
    let b: ContractRevision;
    let c: ContractRevision;
    // The project the server runs for: its contract published as 1.1.3 (prepare, freeze,
    // record-published), so its release records name the definitions hosts hold.
    let project: string;
    before(async function () {
      if (store === "PostgreSQL") {
        pg = await startThrowawayPostgres();
        if (!pg) this.skip();
      }
      project = await publishedProject();
      [b, c] = await Promise.all([withOptionalInput(), withReplacement()]);
    });
    after(async () => {
      await b?.cleanup();
      await c?.cleanup();
      if (project) await removeProject(project);
      await pg?.stop();
    });

    it("an optional input added: a host holding the published definition and one holding the new one both succeed, each result valid under its own definition", async () => {
      const fx = await startFixture(overrides(), { contract: b.contract }, project);
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const sid = await fx.newSession("evolution-b");
        const old = definitionOf(published, "get_skillpilot_learning_context");
        const now = definitionOf(b.descriptors, "get_skillpilot_learning_context");
        const oldCall = { learningSessionId: sid };
        const newCall = { learningSessionId: sid, detail: "brief" };
        assert.ok(valid(old.inputSchema, oldCall) && !valid(old.inputSchema, newCall));
        const a = await client.callTool("get_skillpilot_learning_context", oldCall);
        const n = await client.callTool("get_skillpilot_learning_context", newCall);
        assert.equal(a.isError, undefined, JSON.stringify(a.content));
        assert.equal(n.isError, undefined, JSON.stringify(n.content));
        assert.ok(valid(old.outputSchema, a.structuredContent), "valid under the published output");
        assert.ok(valid(now.outputSchema, n.structuredContent), "valid under the new output");
      } finally {
        await client.close();
        await fx.close();
      }
    });

    it("a tool renamed incompatibly: calls shaped by the published definition still succeed through the adapter, their results valid under the old output schema; the replacement serves new calls; an exact retry replays", async () => {
      const fx = await startFixture(overrides(), replacementServing(c), project);
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const listed = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(
          !listed.includes("complete_skillpilot_goal"),
          "never listed: hosts holding 1.1.3 call it from their own definitions",
        );
        assert.ok(listed.includes("complete_skillpilot_active_goal"));
        const old = definitionOf(published, "complete_skillpilot_goal");
        const first = await activeGoal(fx, client, "evolution-c-old");
        const oldCall = {
          learningSessionId: first.sid,
          expectedStateVersion: first.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        };
        assert.ok(valid(old.inputSchema, oldCall));
        const answer = await client.callTool("complete_skillpilot_goal", oldCall);
        assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
        assert.ok(valid(old.outputSchema, answer.structuredContent), JSON.stringify(ajv.errors));
        assert.equal((answer.structuredContent as Wire).goal.status, "mastered");
        assert.deepEqual(await client.callTool("complete_skillpilot_goal", oldCall), answer);
        const second = await activeGoal(fx, client, "evolution-c-new");
        const fresh = await client.callTool("complete_skillpilot_active_goal", {
          learningSessionId: second.sid,
          expectedStateVersion: second.stateVersion,
          clientRequestId: randomUUID(),
          decision: "mastered",
        });
        assert.equal(fresh.isError, undefined, JSON.stringify(fresh.content));
        const now = definitionOf(c.descriptors, "complete_skillpilot_active_goal");
        assert.ok(valid(now.outputSchema, fresh.structuredContent));
      } finally {
        await client.close();
        await fx.close();
      }
    });

    it("an adapter that maps an old call to an invalid replacement call is refused as temporarily unavailable, nothing written, never an internal error", async () => {
      const fx = await startFixture(
        overrides(),
        replacementServing(c, () => "skipped"),
      );
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const goal = await activeGoal(fx, client, "evolution-bad-adapter");
        const db = pg ? knexFactory({ client: "pg", connection: pg.url }) : fx.db;
        const before = await footprint(db);
        const answer = await client.callTool("complete_skillpilot_goal", {
          learningSessionId: goal.sid,
          expectedStateVersion: goal.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        });
        assert.equal(errorCode(answer), "TEMPORARILY_UNAVAILABLE");
        assert.deepEqual(await footprint(db), before, "nothing written");
        if (pg) await db.destroy();
        const log = await fx.stopAndReadLog();
        assert.match(
          log,
          /adapter of a superseded tool or held definition produced a value its schema refuses/,
        );
        assert.doesNotMatch(log, /INTERNAL_ERROR/);
      } finally {
        await client.close();
        await fx.close();
      }
    });

    it("once the release holding the old definition is retired, the superseded tool is still unlisted and stays callable", async () => {
      const retiredProject = await copyProject(project);
      try {
        const retire = cli(retiredProject, "retire-definitions", "1.1.3", "--reason", "rescanned");
        assert.equal(retire.code, 0, retire.stderr);
        const fx = await startFixture(overrides(), replacementServing(c), retiredProject);
        const client = await connectClient(fx, "2025 stateless (SDK v1)");
        try {
          const listed = (await client.listTools()).tools.map((t) => t.name);
          assert.ok(!listed.includes("complete_skillpilot_goal"), "no live definition holds it");
          assert.ok(listed.includes("complete_skillpilot_active_goal"));
          const goal = await activeGoal(fx, client, "evolution-retired");
          const answer = await client.callTool("complete_skillpilot_goal", {
            learningSessionId: goal.sid,
            expectedStateVersion: goal.stateVersion,
            clientRequestId: randomUUID(),
            decision: "needsMorePractice",
          });
          assert.equal(answer.isError, undefined, JSON.stringify(answer.content));
        } finally {
          await client.close();
          await fx.close();
        }
      } finally {
        await removeProject(retiredProject);
      }
    });
  });

describe("contract evolution: the gates judge against every live approved definition (L12.2, §10.2)", function () {
  this.timeout(240_000);
  let project: string;
  let c: ContractRevision;
  before(async () => {
    project = await publishedProject();
    c = await withReplacement();
  });
  after(async () => {
    await c?.cleanup();
    if (project) await removeProject(project);
  });

  /** Edit the project's schemas as revision C does, bump the package version, regenerate. */
  async function supersede(root: string) {
    const old = JSON.parse(
      await readFile(path.join(root, "schemas/tools/complete_skillpilot_goal.json"), "utf8"),
    ) as Wire;
    const next = { ...structuredClone(old), name: "complete_skillpilot_active_goal" };
    next.$id = String(old.$id).replace(
      /complete_skillpilot_goal$/,
      "complete_skillpilot_active_goal",
    );
    next.input.properties.decision = { enum: ["mastered", "practiceMore"] };
    await writeFile(
      path.join(root, "schemas/tools/complete_skillpilot_active_goal.json"),
      `${JSON.stringify(next, null, 2)}\n`,
    );
    await editTool(root, "complete_skillpilot_goal", (d) => {
      d.supersededBy = "complete_skillpilot_active_goal";
    });
    await editJson(root, "schemas/plugin.json", (d) => {
      d.packageVersion = "1.2.0";
    });
    // Reviewers test the package, which holds the replacement (docs/evolution.md §2, step 4).
    const cases = path.join(root, "release/submission/test-cases.json");
    await writeFile(
      cases,
      (await readFile(cases, "utf8")).replaceAll(
        '"complete_skillpilot_goal"',
        '"complete_skillpilot_active_goal"',
      ),
    );
    await regenerate(root);
  }

  it("a replacement beside the superseded tool is MINOR; removing the old tool while 1.1.3 holds it fails with TOOL_REMOVED and its witness call; after retiring 1.1.3 the removal passes", async () => {
    const root = await copyProject(project);
    try {
      await supersede(root);
      const minor = cli(root, "diff", "--format", "json");
      assert.equal(minor.code, 0, minor.stdout + minor.stderr);
      assert.equal(JSON.parse(minor.stdout).requiredBump, "minor");

      await rm(path.join(root, "schemas/tools/complete_skillpilot_goal.json"));
      await regenerate(root);
      const removed = cli(root, "diff", "--format", "json");
      assert.equal(removed.code, 1, removed.stderr);
      const finding = (JSON.parse(removed.stdout).findings as Wire[]).find(
        (f) => f.ruleId === "TOOL_REMOVED",
      )!;
      assert.equal(finding.tool, "complete_skillpilot_goal");
      assert.match(finding.baseline, /1\.1\.3/);
      assert.equal(finding.witness.value.name, "complete_skillpilot_goal");
      assert.equal(finding.witness.verified, true);

      const retire = cli(root, "retire-definitions", "1.1.3", "--reason", "every host rescanned");
      assert.equal(retire.code, 0, retire.stderr);
      const after = cli(root, "diff", "--format", "json");
      assert.equal(after.code, 0, after.stdout + after.stderr);
      assert.doesNotMatch(after.stdout, /TOOL_REMOVED/);
    } finally {
      await removeProject(root);
    }
  });

  it("verify --live: the candidate is refused while the deployed server lacks its replacement tool (deploy the server first, the witness call in the text report), and passes once the server serves both the candidate and 1.1.3 (MINOR rule: server first); the passing run is the evidence record-published needs", async () => {
    const root = await copyProject(project);
    try {
      await verifyLive(root);
    } finally {
      await removeProject(root);
    }
  });

  async function verifyLive(root: string) {
    let origin = "";
    // The server still deployed: the contract as published in 1.1.3.
    const before = await startFixture({}, undefined, project);
    try {
      await supersede(root);
      const behind = await runCli([
        "-C",
        root,
        "verify",
        "--live",
        before.server.mcpUrl,
        "--format",
        "json",
      ]);
      assert.equal(behind.code, 1, behind.stdout + behind.stderr);
      const found = JSON.parse(behind.stdout).diagnostics as Wire[];
      const summary = found.find((d) => d.ruleId === "LIVE_SERVER_BEHIND")!;
      assert.match(summary.message, /the candidate package/);
      // A tool the candidate adds and the server lacks: the deployment is behind, nothing was
      // removed, so the advice is to deploy the server first.
      assert.ok(!found.some((d) => d.ruleId === "TOOL_REMOVED"), behind.stdout);
      const missing = found.find((d) => d.ruleId === "LIVE_SERVER_TOOL_MISSING")!;
      assert.equal(missing.data.tool, "complete_skillpilot_active_goal");
      assert.equal(missing.data.witness.value.name, "complete_skillpilot_active_goal");
      assert.match(missing.message, /a tool the candidate package adds: deploy the server/);
      assert.doesNotMatch(missing.message, /distinctly named replacement/);
      assert.ok(
        !found.some((d) => /published 1\.1\.3 on/.test(String(d.message))),
        "the deployed server serves what 1.1.3 holds",
      );
      const text = await runCli(["-C", root, "verify", "--live", before.server.mcpUrl]);
      assert.equal(text.code, 1);
      assert.match(
        text.stderr,
        /LIVE_SERVER_TOOL_MISSING .*witness call \{"name":"complete_skillpilot_active_goal","arguments":\{/,
        "the text report shows the witness call",
      );
      await assert.rejects(
        readFile(path.join(root, "contracts/live-evidence.json")),
        "a failing run records no evidence",
      );
    } finally {
      await before.close();
    }
    // The superset deployed: the replacement beside the superseded tool (held by 1.1.3).
    const superset = await startFixture({}, replacementServing(c), project);
    try {
      const ok = await runCli([
        "-C",
        root,
        "verify",
        "--live",
        superset.server.mcpUrl,
        "--format",
        "json",
      ]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      const found = JSON.parse(ok.stdout).diagnostics as Wire[];
      assert.ok(!found.some((d) => d.ruleId === "LIVE_SERVER_BEHIND"), ok.stdout);
      const serves = found.find((d) => d.ruleId === "LIVE_SERVER_SERVES")!;
      assert.match(serves.message, /the candidate package, published 1\.1\.3/);
      assert.match(serves.message, /[1-9][0-9]* UI pages read/);
      origin = new URL(superset.server.mcpUrl).origin;
    } finally {
      await superset.close();
    }
    // The passing run is the evidence record-published needs for exactly this contract.
    const evidence = JSON.parse(
      await readFile(path.join(root, "contracts/live-evidence.json"), "utf8"),
    ) as { runs: Wire[] };
    const snapshot = await readFile(path.join(root, "generated/contract.snapshot.json"));
    assert.deepEqual(evidence.runs, [
      {
        kind: "verified",
        verdict: "LIVE_SERVER_SERVES",
        serverOrigin: origin,
        checkedAt: evidence.runs[0].checkedAt,
        snapshotSha256: createHash("sha256").update(snapshot).digest("hex"),
        packageVersion: "1.2.0",
        holders: ["published 1.1.3"],
      },
    ]);
    assert.ok(!Number.isNaN(Date.parse(evidence.runs[0].checkedAt)));
    assert.equal(cli(root, "prepare").code, 0);
    const frozen = cli(root, "freeze", "1.2.0");
    assert.equal(frozen.code, 0, frozen.stderr);
    assert.doesNotMatch(frozen.stderr, /LIVE_EVIDENCE_PENDING/);
    const recorded = cli(root, "record-published", "1.2.0", "--published-at", "2026-12-01");
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stdout, new RegExp(`pre-submission evidence: ${origin} served`));
    const index = JSON.parse(
      await readFile(path.join(root, "contracts/release-index.json"), "utf8"),
    ) as { releases: Wire[] };
    assert.equal(index.releases.at(-1).liveEvidence.serverOrigin, origin);
  }

  it("a revised page under a new ui:// URI: the draft binds it while 1.1.3 keeps its own, the server serves both byte for byte, and verify --live reads both", async () => {
    const root = await copyProject(project);
    let fx: RuntimeFixture | undefined;
    let revised: ContractRevision | undefined;
    try {
      const approved = String(
        (definitionOf(published, "render_skillpilot_goal_visualization") as Wire)._meta.ui
          .resourceUri,
      );
      const page = path.join(root, "ui/goal-visualization/index.html");
      await writeFile(page, `${await readFile(page, "utf8")}<!-- revised -->\n`);
      const activated = cli(root, "ui", "build", "--activate", "--json");
      assert.equal(activated.code, 0, activated.stderr);
      const draft = String(JSON.parse(activated.stdout)["goal-visualization"]);
      assert.notEqual(draft, approved);
      revised = await contractRevision((r) =>
        cp(path.join(root, "release/line.json"), path.join(r, "release/line.json")),
      );
      fx = await startFixture({}, { contract: revised.contract }, root);
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const listed = (await client.listTools()).tools.find(
          (t) => t.name === "render_skillpilot_goal_visualization",
        )!;
        assert.equal(
          (listed as Wire)._meta.ui.resourceUri,
          draft,
          "the new definition binds the new URI",
        );
        for (const uri of [approved, draft]) {
          const text = String((await client.readResource(uri)).contents[0].text);
          const hash = createHash("sha256").update(text, "utf8").digest("hex");
          assert.ok(uri.includes(`sha256-${hash}`), `${uri} is served byte for byte`);
        }
      } finally {
        await client.close();
      }
      const live = await runCli([
        "-C",
        root,
        "verify",
        "--live",
        fx.server.mcpUrl,
        "--format",
        "json",
      ]);
      const found = JSON.parse(live.stdout).diagnostics as Wire[];
      assert.ok(!found.some((d) => d.ruleId === "LIVE_SERVER_BEHIND"), live.stdout);
      assert.ok(
        found.some((d) => d.ruleId === "LIVE_SERVER_SERVES"),
        live.stdout,
      );
    } finally {
      await fx?.close();
      await revised?.cleanup();
      await removeProject(root);
    }
  });

  it("verify --live on an address that is not a server, or one that does not answer, says so", async () => {
    const bad = await runCli(["-C", project, "verify", "--live", "localhost:3000/mcp"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /expected an http\(s\):\/\/HOST\/mcp address/);
    const down = await runCli([
      "-C",
      project,
      "verify",
      "--live",
      "http://127.0.0.1:9/mcp",
      "--format",
      "json",
    ]);
    assert.equal(down.code, 1, down.stderr);
    const found = JSON.parse(down.stdout).diagnostics as Wire[];
    assert.match(
      found.find((d) => d.ruleId === "LIVE_SERVER_UNREACHABLE")!.message,
      /127\.0\.0\.1:9/,
    );
  });

  it("a superseded tool whose replacement does not exist is a generate diagnostic, nothing written", async () => {
    const root = await copyProject(project);
    try {
      await editTool(root, "complete_skillpilot_goal", (d) => {
        d.supersededBy = "complete_skillpilot_goal_next";
      });
      const before = await readFile(path.join(root, "generated/contract.snapshot.json"), "utf8");
      const out = cli(root, "generate");
      assert.equal(out.code, 1);
      assert.match(out.stdout + out.stderr, /SUPERSEDED_TOOL_INVALID/);
      assert.match(out.stdout + out.stderr, /complete_skillpilot_goal_next/);
      assert.equal(
        await readFile(path.join(root, "generated/contract.snapshot.json"), "utf8"),
        before,
      );
    } finally {
      await removeProject(root);
    }
  });

  it("retiring a release that was never published is refused, nothing changed", async () => {
    const root = await copyProject(project);
    try {
      const out = cli(root, "retire-definitions", "1.0.0", "--reason", "never shipped");
      assert.equal(out.code, 1);
      assert.match(out.stderr + out.stdout, /RETIRE_UNPUBLISHED/);
    } finally {
      await removeProject(root);
    }
  });
});

describe("contract evolution: a client-policy rollback needs a server that serves every live approved definition (L14, §10.1)", function () {
  this.timeout(180_000);
  const profileB: ClientProfile = {
    ...testConfidentialProfile,
    name: "test-connector-b",
    clientId: "test-connector-client-b",
  };
  let project: string;
  let c: ContractRevision;
  let without: ContractRevision;
  before(async () => {
    project = await publishedProject();
    [c, without] = await Promise.all([
      withReplacement(),
      contractRevision((root) =>
        rm(path.join(root, "schemas/tools/complete_skillpilot_goal.json")),
      ),
    ]);
  });
  after(async () => {
    await c?.cleanup();
    await without?.cleanup();
    if (project) await removeProject(project);
  });

  it("re-activating a retired profile on a server without a tool 1.1.3 holds is refused, nothing changed; the superset server may", async () => {
    const issuer = await createTestIssuer("http://issuer.test");
    const dataDir = path.join(project, "policy-data");
    const line = JSON.parse(
      await readFile(path.join(project, "release/line.json"), "utf8"),
    ) as Wire;
    const raised = path.join(project, "release/line-raised.json");
    await writeFile(raised, JSON.stringify({ ...line, policyRevision: line.policyRevision + 1 }));
    const config = (profiles: ClientProfile[], lineFile?: string) => ({
      publicUrl: "https://coach.test",
      developmentTunnel: true,
      dataDir,
      auth: issuer.config(profiles),
      ...(lineFile && { lineFile }),
    });
    const db = knexFactory({
      client: "better-sqlite3",
      connection: { filename: path.join(dataDir, "skillpilot.sqlite") },
      useNullAsDefault: true,
    });
    const statuses = async () =>
      Object.fromEntries(
        ((await db("client_policy").select()) as { profile_name: string; status: string }[]).map(
          (r) => [r.profile_name, r.status],
        ),
      );
    try {
      await (await startFixture(config([testConfidentialProfile]), undefined, project)).close();
      await (await startFixture(config([profileB]), undefined, project)).close();
      const before = await statuses();
      assert.deepEqual(before, { "test-connector": "RETIRED", "test-connector-b": "ACTIVE" });
      await assert.rejects(
        startFixture(
          config([testConfidentialProfile], raised),
          { contract: without.contract },
          project,
        ),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "CLIENT_POLICY_ROLLBACK_INCOMPATIBLE");
          assert.match(error.message, /complete_skillpilot_goal, held by 1\.1\.3, is not served/);
          return true;
        },
      );
      assert.deepEqual(await statuses(), before, "nothing changed");
      const superset = await startFixture(
        config([testConfidentialProfile], raised),
        replacementServing(c),
        project,
      );
      await superset.close();
      assert.deepEqual(await statuses(), {
        "test-connector": "ACTIVE",
        "test-connector-b": "RETIRED",
      });
    } finally {
      await db.destroy();
      await issuer.close();
    }
  });
});
