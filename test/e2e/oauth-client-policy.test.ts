import assert from "node:assert/strict";
import { type ChildProcess, execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import http from "node:http";
import { promisify } from "node:util";
import knexFactory, { type Knex } from "knex";
import type { ClientProfile } from "../../runtime/auth/client-profiles.js";
import { generateKeyringConfig } from "../../runtime/capability/index.js";
import type { ConfigOverrides } from "../../runtime/config/config.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { spawnServerProcess } from "../support/server-process.js";
import {
  createTestIssuer,
  type TestIssuer,
  testConfidentialProfile,
} from "../runtime/support/test-issuer.js";
import { startThrowawayPostgres } from "../runtime/support/throwaway-postgres.js";

const profileA = testConfidentialProfile;
const profileB: ClientProfile = {
  ...testConfidentialProfile,
  name: "test-connector-b",
  clientId: "test-connector-client-b",
};

interface PolicyRow {
  profile_name: string;
  status: string;
  retired_at_revision: number | null;
}

/** Where the instances of one test keep their shared database. */
interface SharedDatabase {
  overrides: ConfigOverrides;
  db: Knex;
  close(): Promise<void>;
}

async function sqliteDatabase(): Promise<SharedDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-policy-"));
  const dataDir = path.join(dir, "data");
  const db = knexFactory({
    client: "better-sqlite3",
    connection: { filename: path.join(dataDir, "skillpilot.sqlite") },
    useNullAsDefault: true,
  });
  return {
    overrides: { dataDir },
    db,
    close: async () => {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresDatabase(): Promise<SharedDatabase | undefined> {
  const pg = await startThrowawayPostgres();
  if (!pg) return undefined;
  const db = knexFactory({ client: "pg", connection: pg.url });
  return {
    overrides: {
      databaseUrl: pg.url,
      capabilityKeys: generateKeyringConfig("k1"),
      logHmacKey: randomBytes(32).toString("base64url"),
    },
    db,
    close: async () => {
      await db.destroy();
      await pg.stop();
    },
  };
}

/** A line file like the repository's, at another policyRevision. */
async function lineAt(dir: string, policyRevision: number): Promise<string> {
  const line = JSON.parse(await readFile(path.join(repoRoot, "release/line.json"), "utf8"));
  const file = path.join(dir, `line-${policyRevision}.json`);
  await writeFile(file, JSON.stringify({ ...line, policyRevision }));
  return file;
}

/** A config file of a `skillpilot start` process on the shared database (log in `work`). */
async function serverConfig(
  work: string,
  shared: SharedDatabase,
  issuer: TestIssuer,
  name: string,
  profiles: ClientProfile[],
  revision: number,
): Promise<string> {
  const file = path.join(work, `${name}.config.json`);
  await writeFile(
    file,
    JSON.stringify({
      publicUrl: "https://coach.test",
      developmentTunnel: true,
      dataDir: shared.overrides.dataDir,
      lineFile: await lineAt(work, revision),
      logDestination: path.join(work, `${name}.log`),
      auth: issuer.config(profiles),
    }),
  );
  return file;
}

for (const dialect of ["SQLite", "PostgreSQL"] as const) {
  describe(`AuthenticatedClientPolicy on ${dialect} (issue #12; L14)`, function () {
    this.timeout(120_000);
    let issuer: TestIssuer;
    let shared: SharedDatabase;
    let work: string;
    const running: RuntimeFixture[] = [];
    const start = async (profiles: ClientProfile[], lineFile?: string) => {
      // A fixed public URL: the OAuth resource, and so the fingerprints, must not follow the
      // ephemeral port of each test server.
      const fx = await startFixture({
        publicUrl: "https://coach.test",
        developmentTunnel: true,
        ...shared.overrides,
        ...(lineFile && { lineFile }),
        auth: issuer.config(profiles),
      });
      running.push(fx);
      return fx;
    };
    const policy = async () =>
      Object.fromEntries(
        ((await shared.db("client_policy").select()) as PolicyRow[]).map((r) => [
          r.profile_name,
          `${r.status}${r.retired_at_revision ? `@${r.retired_at_revision}` : ""}`,
        ]),
      );

    before(async function () {
      const db = dialect === "SQLite" ? await sqliteDatabase() : await postgresDatabase();
      if (!db) this.skip(); // PostgreSQL is not installed on this machine
      shared = db;
      issuer = await createTestIssuer("http://issuer.test");
      work = await mkdtemp(path.join(tmpdir(), "skillpilot-policy-lines-"));
    });
    afterEach(async () => {
      for (const fx of running.splice(0)) await fx.close();
    });
    after(async () => {
      await shared?.close();
      await issuer?.close();
      if (work) await rm(work, { recursive: true, force: true });
    });

    it("activates the configured profiles' fingerprints at start-up", async () => {
      const fx = await start([profileA]);
      assert.deepEqual(await policy(), { "test-connector": "ACTIVE" });
      const [row] = (await shared.db("client_policy").select("fingerprint")) as {
        fingerprint: string;
      }[];
      assert.equal(row.fingerprint, fx.services.auth.settings.profiles[0].fingerprint);
    });

    it("a cutover activates the new fingerprint and retires the old one at the line's revision", async () => {
      await start([profileB]);
      assert.deepEqual(await policy(), {
        "test-connector": "RETIRED@3",
        "test-connector-b": "ACTIVE",
      });
    });

    it("refuses to roll back to a retired fingerprint, changing nothing", async () => {
      await assert.rejects(start([profileA]), (error: Error & { code?: string }) => {
        assert.equal(error.code, "CLIENT_POLICY_ROLLBACK_REFUSED");
        assert.match(error.message, /retired at policyRevision 3.*new policyRevision above 3/);
        return true;
      });
      assert.deepEqual(await policy(), {
        "test-connector": "RETIRED@3",
        "test-connector-b": "ACTIVE",
      });
    });

    it("refuses a retired client under a new fingerprint (renamed, a redirect added), changing nothing", async () => {
      const variants: ClientProfile[] = [
        { ...profileA, name: "test-connector-renamed" },
        { ...profileA, redirectUris: [...profileA.redirectUris, "https://other.test/cb"] },
      ];
      for (const variant of variants)
        await assert.rejects(start([variant]), (error: Error & { code?: string }) => {
          assert.equal(error.code, "CLIENT_POLICY_ROLLBACK_REFUSED");
          assert.match(
            error.message,
            /its client test-connector-client was retired at policyRevision 3/,
          );
          return true;
        });
      assert.deepEqual(await policy(), {
        "test-connector": "RETIRED@3",
        "test-connector-b": "ACTIVE",
      });
    });

    it("allows the rollback once policyRevision is raised above the retiring revision; the client's tokens from before the re-activation need fresh authorization", async () => {
      const stale = await issuer.mint({
        audience: "https://coach.test/mcp",
        subject: "ann",
        scopes: ["coach.read"],
        issuedAt: Math.floor(Date.now() / 1000) - 120,
      });
      const fx = await start([profileA], await lineAt(work, 4));
      assert.deepEqual(await policy(), {
        "test-connector": "ACTIVE",
        "test-connector-b": "RETIRED@4",
      });
      await assert.rejects(
        fx.services.auth.verify(stale),
        /issued before its client profile was activated again/,
      );
      const fresh = await issuer.mint({
        audience: "https://coach.test/mcp",
        subject: "ann",
        scopes: ["coach.read"],
        issuedAt: Math.floor(Date.now() / 1000) + 2,
      });
      assert.equal((await fx.services.auth.verify(fresh)).subject, "ann");
      // A restart of the same profiles (or a second instance) still refuses the old token.
      await fx.close();
      running.splice(running.indexOf(fx), 1);
      const again = await start([profileA], await lineAt(work, 4));
      await assert.rejects(again.services.auth.verify(stale), /fresh authorization/);
    });

    it("a second instance with different profiles refuses to serve the same database", async () => {
      await start([profileA], await lineAt(work, 4));
      await assert.rejects(
        start([profileB], await lineAt(work, 5)),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "CLIENT_POLICY_CONFLICT");
          assert.match(error.message, /another running instance serves this database/);
          return true;
        },
      );
      // Instances with the same profiles scale out side by side.
      await start([profileA], await lineAt(work, 4));
      assert.deepEqual(await policy(), {
        "test-connector": "ACTIVE",
        "test-connector-b": "RETIRED@4",
      });
    });

    if (dialect === "SQLite")
      it("`skillpilot start` of such a second instance exits 2 with a clear message", async () => {
        await start([profileA], await lineAt(work, 4));
        const config = path.join(work, "other.config.json");
        await writeFile(
          config,
          JSON.stringify({
            port: 0,
            publicUrl: "https://coach.test",
            developmentTunnel: true,
            dataDir: shared.overrides.dataDir,
            lineFile: await lineAt(work, 5),
            logDestination: path.join(work, "cli.log"),
            auth: issuer.config([profileB]),
          }),
        );
        const result = await promisify(execFile)(
          process.execPath,
          [path.join(repoRoot, "bin/skillpilot.js"), "start", "--config", config],
          { cwd: repoRoot },
        ).then(
          () => ({ code: 0, stderr: "" }),
          (e: { code: number; stderr: string }) => e,
        );
        assert.equal(result.code, 2);
        assert.match(
          result.stderr,
          /another running instance serves this database with different OAuth client profiles/,
        );
      });
    // After the tests above: this one leaves profile B active.
    if (dialect === "SQLite") {
      it("an instance killed with SIGKILL does not block the next start with other profiles", async () => {
        const config = (name: string, profiles: ClientProfile[], revision: number) =>
          serverConfig(work, shared, issuer, name, profiles, revision);
        const killed = await spawnServerProcess(["--config", await config("a", [profileA], 5)])
          .ready;
        assert.equal(await killed.kill(), "SIGKILL");
        // Its registration is seconds old, but its process is gone from this host.
        const next = await spawnServerProcess(["--config", await config("b", [profileB], 6)]).ready;
        assert.equal(await next.stop(), 0);
        assert.deepEqual(await policy(), {
          "test-connector": "RETIRED@6",
          "test-connector-b": "ACTIVE",
        });
      });

      it("the development issuer starts on any port, also on an earlier one again", async () => {
        const dataDir = path.join(work, "dev-data");
        const first = await spawnServerProcess(["--data-dir", dataDir]).ready;
        const port = Number(new URL(first.mcpUrl).port);
        assert.equal(await first.stop(), 0);
        const other = await spawnServerProcess(["--data-dir", dataDir]).ready;
        assert.notEqual(Number(new URL(other.mcpUrl).port), port);
        assert.equal(await other.stop(), 0);
        // The development profile follows the port; it is never recorded, so never "retired".
        const again = await spawnServerProcess(["--data-dir", dataDir], {}, port).ready;
        assert.equal(await again.stop(), 0);
      });
    }

    it("editing the active client's profile is a cutover, also when an older edit was retired at this revision", async () => {
      await shared.db("server_instances").delete();
      await shared.db("client_policy").delete();
      const edits = ["first", "second", "third"].map((n) => ({ ...profileA, name: `edit-${n}` }));
      for (const edit of edits) {
        const fx = await start([edit]);
        await fx.close();
        running.splice(running.indexOf(fx), 1);
      }
      assert.deepEqual(await policy(), {
        "edit-first": "RETIRED@3",
        "edit-second": "RETIRED@3",
        "edit-third": "ACTIVE",
      });
    });
  });
}

describe("client policy under faults: development starts, port changes, takeovers, frozen instances (issue #21 items 2, 4, 5, 9)", function () {
  this.timeout(180_000);
  let issuer: TestIssuer;
  let shared: SharedDatabase;
  let work: string;
  const running: RuntimeFixture[] = [];
  const spawned: { stop(): Promise<unknown>; child: ChildProcess }[] = [];
  const policy = async () =>
    Object.fromEntries(
      ((await shared.db("client_policy").select()) as PolicyRow[]).map((r) => [
        r.profile_name,
        `${r.status}${r.retired_at_revision ? `@${r.retired_at_revision}` : ""}`,
      ]),
    );
  const configFile = (name: string, profiles: ClientProfile[], revision = 3) =>
    serverConfig(work, shared, issuer, name, profiles, revision);

  beforeEach(async () => {
    shared = await sqliteDatabase();
    issuer = await createTestIssuer("http://issuer.test");
    work = await mkdtemp(path.join(tmpdir(), "skillpilot-policy-faults-"));
  });
  afterEach(async () => {
    for (const fx of running.splice(0)) await fx.close();
    for (const server of spawned.splice(0)) {
      // A stopped (SIGSTOP) process must run again to hear SIGTERM.
      if (server.child.exitCode === null && server.child.signalCode === null)
        server.child.kill("SIGCONT");
      await server.stop();
    }
    await shared.close();
    await issuer.close();
    await rm(work, { recursive: true, force: true });
  });

  it("a development start on a configured server's data directory retires none of its profiles", async () => {
    const configured = () =>
      startFixture({
        ...shared.overrides,
        publicUrl: "https://coach.test",
        developmentTunnel: true,
        auth: issuer.config([profileA]),
      });
    await (await configured()).close();
    assert.deepEqual(await policy(), { "test-connector": "ACTIVE" });
    // No issuer: the development issuer, which records no profile.
    await (await startFixture(shared.overrides)).close();
    assert.deepEqual(await policy(), { "test-connector": "ACTIVE" });
    // So the configured server starts again without a raised policyRevision.
    running.push(await configured());
    assert.deepEqual(await policy(), { "test-connector": "ACTIVE" });
  });

  it("on loopback a configured server moves to another port and back without a rollback refusal", async () => {
    const at = (port: number) =>
      startFixture({ ...shared.overrides, port, auth: issuer.config([profileA]) });
    const first = await at(0);
    const port = first.server.port;
    await first.close();
    const other = await at(0);
    assert.notEqual(other.server.port, port);
    await other.close();
    running.push(await at(port));
    assert.deepEqual(await policy(), { "test-connector": "ACTIVE" });
  });

  it("`skillpilot start` exits 2 when another instance takes over with other profiles", async () => {
    const server = await spawnServerProcess(["--config", await configFile("a", [profileA])]).ready;
    spawned.push(server);
    // Another instance's cutover, as its activation records it.
    await shared.db("client_policy").update({ status: "RETIRED", retired_at_revision: 3 });
    await shared.db("client_policy").insert({
      fingerprint: "f".repeat(64),
      profile_name: "elsewhere",
      client_id: "client-elsewhere",
      resource: "https://coach.test/mcp",
      status: "ACTIVE",
      activated_at: new Date().toISOString(),
    });
    assert.equal(await server.exited, 2);
    assert.match(
      await readFile(path.join(work, "a.log"), "utf8"),
      /another instance activated different OAuth client profiles/,
    );
  });

  it("a frozen instance serves no retired client's token after another took over, and exits 2", async () => {
    const frozen = await spawnServerProcess(["--config", await configFile("a", [profileA])]).ready;
    spawned.push(frozen);
    const tokenA = await issuer.mint({
      audience: "https://coach.test/mcp",
      subject: "ann",
      scopes: ["coach.read"],
    });
    // A new connection per call: a kept-alive one would time out on the server while it is frozen.
    const ping = () =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
        const req = http.request(
          frozen.mcpUrl,
          {
            method: "POST",
            agent: false,
            headers: {
              accept: "application/json, text/event-stream",
              "content-type": "application/json",
              "mcp-protocol-version": "2025-11-25",
              authorization: `Bearer ${tokenA}`,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk: Buffer) => (text += chunk.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    assert.equal((await ping()).status, 200, "the token is served while the policy is A's");
    frozen.child.kill("SIGSTOP");
    // Another instance with other profiles starts as soon as the frozen one's heartbeat is stale;
    // until then it is refused (exit 2) and tried again.
    let next: Awaited<ReturnType<typeof spawnServerProcess>["ready"]> | undefined;
    for (let attempt = 1; !next; attempt++) {
      const candidate = spawnServerProcess(["--config", await configFile("b", [profileB], 4)]);
      next = await candidate.ready.catch(() => undefined);
      if (!next) assert.match(candidate.output(), /another running instance serves this database/);
      assert.ok(attempt < 120, "the frozen instance's registration never went stale");
    }
    spawned.push(next);
    assert.deepEqual(await policy(), {
      "test-connector": "RETIRED@4",
      "test-connector-b": "ACTIVE",
    });
    // The call is on its way while the instance is still frozen: its first request on waking.
    const pending = ping();
    frozen.child.kill("SIGCONT");
    // 503, or the connection closed by the stopping instance before it read the request: never
    // the token served.
    const answer = await pending.catch((error: NodeJS.ErrnoException) => ({
      status: 0,
      text: String(error.code),
    }));
    assert.ok(
      answer.status === 503 || ["ECONNRESET", "ECONNREFUSED"].includes(answer.text),
      `served a retired client's token: ${answer.status} ${answer.text}`,
    );
    assert.equal(await frozen.exited, 2);
  });
});
