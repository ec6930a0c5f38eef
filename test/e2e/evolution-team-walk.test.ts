import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import knexFactory from "knex";
import { createAjv } from "../../json-schema/ajv.js";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";
import { connectClient, type CoachClient } from "../runtime/support/mcp-clients.js";
import { type ServerProcess, spawnServerProcess } from "../support/server-process.js";
import { repoRoot } from "../support/temp-project.js";
import type { Wire } from "../support/wire.js";
import { removeOldCompleteGoal, renameCompleteGoal } from "./support/team-edits.js";

/*
 * The contract-evolution path walked the way a team walks it (docs/evolution.md): a clone of this
 * repository with real git commits, `npm run build` (the compiler checks every place a tool name
 * lives), the CLI as documented, `npm run gates` after every commit, a real `skillpilot start`
 * redeployed on one data directory, the official MCP client holding each release's package
 * definitions (every result validated against them with Ajv), and the SQLite file checked after
 * the writes. publish 1.1.3 → rename a tool → publish 1.2.0 → removal refused while 1.1.3 is live
 * → retire 1.1.3 → remove the old tool and its adapter → publish 1.2.1.
 */

const OLD = "complete_skillpilot_goal";
const NEW = "complete_skillpilot_active_goal";
const ajv = createAjv({ strict: false });

function run(cmd: string, args: string[], cwd: string) {
  const env = { ...process.env };
  delete env.SKILLPILOT_GATES_BASELINE;
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("contract evolution on a team's path: a clone, git, build, gates, a redeployed server (§10.1, §10.2, L12.2)", function () {
  this.timeout(900_000);
  let w: string;
  let dataDir: string;
  let port: number;
  let server: ServerProcess | undefined;
  const sp = (...args: string[]) => run(process.execPath, ["bin/skillpilot.js", ...args], w);
  const ok = (r: { code: number | null; out: string }, what: string) =>
    assert.equal(r.code, 0, `${what} failed:\n${r.out.slice(-4000)}`);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: w, encoding: "utf8" });
  const commit = (message: string) => {
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };
  const gates = () => run("npm", ["run", "-s", "gates"], w);
  const build = () => ok(run("npm", ["run", "-s", "build"], w), "npm run build");
  async function deploy() {
    await server?.stop();
    server = await spawnServerProcess(["--data-dir", dataDir], {}, port, w).ready;
  }
  const token = (learner: string) => {
    const r = sp(
      "auth",
      "token",
      "--learner",
      learner,
      "--port",
      String(port),
      "--data-dir",
      dataDir,
    );
    ok(r, "auth token");
    return r.out.trim().split("\n").pop()!;
  };
  async function launch(learner: string): Promise<string> {
    const res = await fetch(`${server!.origin}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ learner }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { learningSessionId: string }).learningSessionId;
  }
  const client = (learner: string): Promise<CoachClient> => {
    const t = token(learner);
    return connectClient(server!.mcpUrl, "2026-07-28 (SDK v2)", { authorize: async () => t });
  };
  async function publish(version: string, releaseToken: string) {
    ok(sp("prepare"), "prepare");
    ok(
      sp("verify", "--live", server!.mcpUrl, "--header", `Authorization: Bearer ${releaseToken}`),
      "verify --live",
    );
    ok(sp("freeze", version), "freeze");
    ok(sp("record-published", version, "--published-at", "2026-12-02"), "record-published");
    commit(`release ${version}`);
  }
  const packageTools = async (version: string) =>
    JSON.parse(
      await readFile(
        path.join(w, `contracts/published/openai/skillpilot-coach/${version}/package/tools.json`),
        "utf8",
      ),
    ) as Wire[];
  const holds = (tools: Wire[], name: string, value: unknown) => {
    const schema = tools.find((t) => t.name === name)!.outputSchema;
    assert.ok(ajv.validate(schema, value), `${name}: ${JSON.stringify(ajv.errors)}`);
  };
  async function store() {
    const db = knexFactory({
      client: "better-sqlite3",
      connection: { filename: path.join(dataDir, databaseFileName) },
      useNullAsDefault: true,
    });
    try {
      const count = async (t: string) => Number((await db(t).count({ n: "*" }))[0].n);
      return {
        receipts: await count("receipts"),
        replays: await count("idempotency_records"),
        mastered: Number(
          (await db("progress").where({ status: "mastered" }).count({ n: "*" }))[0].n,
        ),
      };
    } finally {
      await db.destroy();
    }
  }

  before(async () => {
    w = await mkdtemp(path.join(tmpdir(), "sp-team-walk-"));
    execFileSync("git", ["clone", "-q", repoRoot, w]);
    git("config", "user.email", "walk@example.test");
    git("config", "user.name", "walk");
    await appendFile(path.join(w, ".git/info/exclude"), "node_modules\n");
    await symlink(path.join(repoRoot, "node_modules"), path.join(w, "node_modules"));
    // The repository's own build warms the clone's incremental one.
    await cp(path.join(repoRoot, "build"), path.join(w, "build"), { recursive: true });
    build();
    dataDir = await mkdtemp(path.join(tmpdir(), "sp-team-walk-data-"));
    port = await freePort();
  });
  after(async () => {
    await server?.stop();
    if (w) await rm(w, { recursive: true, force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("rename, publish the replacement, retire, remove and publish again: every gate as documented, every host served its own definitions", async () => {
    // 1. Publish 1.1.3 as the repository stands.
    await deploy();
    await publish("1.1.3", token("release"));
    ok(gates(), "gates after publishing 1.1.3");
    const v113 = await packageTools("1.1.3");

    // A learner whose host approved 1.1.3 starts working on a goal.
    const sid = await launch("holder-113");
    let c113 = await client("holder-113");
    const ctx = (await c113.callTool("get_skillpilot_learning_context", { learningSessionId: sid }))
      .structuredContent as Wire;
    const taught = await c113.callTool("choose_skillpilot_option", {
      learningSessionId: sid,
      expectedStateVersion: ctx.stateVersion,
      clientRequestId: randomUUID(),
      option: ctx.options[0].payload,
    });
    holds(v113, "choose_skillpilot_option", taught.structuredContent);
    await c113.close();

    // 2. The rename (docs §2): it builds, and the diff is MINOR.
    await renameCompleteGoal(w);
    ok(sp("generate"), "generate");
    build();
    const diff = sp("diff", "--format", "json");
    ok(diff, "diff after the rename");
    const verdict = JSON.parse(diff.out.slice(diff.out.indexOf("{"))) as Wire;
    assert.equal(verdict.requiredBump, "minor");
    const rules = new Set((verdict.findings as Wire[]).map((f) => f.ruleId));
    assert.ok(rules.has("TOOL_ADDED") && rules.has("TOOL_REFERENCE_ADDED"), [...rules].join());
    commit("complete_skillpilot_active_goal replaces complete_skillpilot_goal");
    ok(gates(), "gates after the rename");

    // Redeployed on the same data directory: the 1.1.3 host still works, its results valid.
    await deploy();
    c113 = await client("holder-113");
    const listed = (await c113.listTools()).tools.map((t) => t.name);
    assert.ok(listed.includes(NEW) && !listed.includes(OLD), listed.join());
    const context = await c113.callTool("get_skillpilot_learning_context", {
      learningSessionId: sid,
    });
    holds(v113, "get_skillpilot_learning_context", context.structuredContent);
    const actions = (context.structuredContent as Wire).allowedActions as string[];
    assert.ok(actions.includes(OLD) && !actions.includes(NEW), actions.join());
    const before = await store();
    const call = {
      learningSessionId: sid,
      expectedStateVersion: (context.structuredContent as Wire).stateVersion,
      clientRequestId: randomUUID(),
      decision: "achieved",
    };
    const done = await c113.callTool(OLD, call);
    assert.equal(done.isError, undefined, JSON.stringify(done.content));
    holds(v113, OLD, done.structuredContent);
    assert.equal((done.structuredContent as Wire).receipt.operation, OLD);
    assert.deepEqual(await c113.callTool(OLD, call), done, "the exact retry replays");
    const afterWrite = await store();
    assert.equal(afterWrite.receipts, before.receipts + 1, "one effect per key");
    assert.equal(afterWrite.mastered, before.mastered + 1);
    await c113.close();

    // 3. Publish the replacement release: its package holds the replacement only.
    await publish("1.2.0", token("release"));
    const v120 = await packageTools("1.2.0");
    assert.deepEqual(
      [v120.some((t) => t.name === OLD), v120.some((t) => t.name === NEW)],
      [false, true],
    );
    ok(gates(), "gates after publishing 1.2.0");

    // 4. Removing the old tool while 1.1.3 is live: the gates fail with the witness call.
    await removeOldCompleteGoal(w, "1.2.1");
    ok(sp("generate"), "generate");
    commit("remove the old tool too early");
    const early = gates();
    assert.equal(early.code, 1, early.out.slice(-3000));
    assert.match(
      early.out,
      /TOOL_REMOVED\s+tool complete_skillpilot_goal was removed[^\n]*against 1\.1\.3/,
    );
    git("reset", "-q", "--hard", "HEAD~1");

    // 5. Retire 1.1.3, then the removal passes.
    ok(sp("retire-definitions", "1.1.3", "--reason", "every host serves 1.2.0"), "retire");
    commit("retire 1.1.3");
    ok(gates(), "gates after the retirement");
    await removeOldCompleteGoal(w, "1.2.1");
    ok(sp("generate"), "generate");
    build();
    commit("remove complete_skillpilot_goal and its adapter");
    const removed = gates();
    ok(removed, "gates after the removal");
    assert.match(removed.out, /SUPERSEDED_TOOL_REMOVED/);

    // 6. Redeployed: the replacement serves the 1.2.0 host, the old name is gone, progress kept.
    await deploy();
    const c120 = await client("holder-113");
    try {
      const ctx2 = await c120.callTool("get_skillpilot_learning_context", {
        learningSessionId: sid,
      });
      holds(v120, "get_skillpilot_learning_context", ctx2.structuredContent);
      await assert.rejects(c120.callTool(OLD, call), /Unknown tool/);
      assert.equal((await store()).mastered, afterWrite.mastered, "nothing lost across deploys");
      await publish("1.2.1", token("release"));
      ok(gates(), "gates after publishing 1.2.1");
    } finally {
      await c120.close();
    }
  });

  it("a second contract major from the project layout: majors/v2 built and served by skillpilot start, launched through /api/sessions on its own endpoint", async () => {
    const fixture = path.join(repoRoot, "test/fixtures/contract-v2");
    const v2 = path.join(w, "majors/v2");
    for (const dir of ["schemas", "generated", "release"])
      await cp(path.join(fixture, dir), path.join(v2, dir), { recursive: true });
    await mkdir(path.join(v2, "handlers"), { recursive: true });
    await writeFile(
      path.join(v2, "handlers/index.ts"),
      (await readFile(path.join(fixture, "handlers.ts"), "utf8")).replace(
        "./generated/handlers.gen.js",
        "../generated/handlers.gen.js",
      ),
    );
    await writeFile(
      path.join(v2, "serve.ts"),
      `import type { MajorServing } from "../../runtime/project-majors.js";
import { supersededTools, toolKinds } from "./generated/handlers.gen.js";
import { pluginIdentity } from "./generated/identity.gen.js";
import { contractScopes, toolDescriptors, toolScopes } from "./generated/tools.gen.js";
import * as validators from "./generated/validators.gen.js";
import { v2Handlers } from "./handlers/index.js";

/** Contract major 2 as skillpilot start serves it. */
export const major: MajorServing = {
  contract: { pluginIdentity, toolDescriptors, toolScopes, contractScopes, toolKinds, supersededTools, validators },
  handlers: v2Handlers as never,
};
`,
    );
    ok(sp("-C", "majors/v2", "generate", "--check"), "generate --check of majors/v2");
    build();
    commit("contract major 2");
    await deploy();
    const health = (await (await fetch(`${server!.origin}/healthz`)).json()) as Wire;
    assert.deepEqual(health.contractMajors, [1, 2]);
    const res = await fetch(`${server!.origin}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ learner: "major-two", contractMajor: 2 }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const launched = (await res.json()) as { learningSessionId: string; mcpUrl: string };
    assert.equal(launched.mcpUrl, `${server!.origin}/internal/openai/v2/mcp`);
    const t = token("major-two");
    const c2 = await connectClient(launched.mcpUrl, "2026-07-28 (SDK v2)", {
      authorize: async () => t,
    });
    try {
      const overview = await c2.callTool("get_skillpilot_progress_overview", {
        learningSessionId: launched.learningSessionId,
      });
      assert.equal(overview.isError, undefined, JSON.stringify(overview.content));
      assert.equal((overview.structuredContent as Wire).contractMajor, 2);
    } finally {
      await c2.close();
    }
    // Unbuilt, the major stops the start with one line naming what to do.
    await server?.stop();
    server = undefined;
    await rm(path.join(w, "build/majors/v2/serve.js"));
    const refused = spawnServerProcess(["--data-dir", dataDir], {}, port, w);
    assert.equal(await refused.exited, 2);
    assert.match(refused.output(), /majors\/v2: is not built.*run npm run build/);
  });
});
