import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import { generateKeyringConfig } from "../../../runtime/capability/index.js";
import {
  type DatabaseLocation,
  latestStateSchemaVersion,
  migrateForward,
  openAdminKnex,
  readStateSchemaStatus,
} from "../../../runtime/store/state-schema.js";
import { pluginIdentity } from "../../../generated/identity.gen.js";
import { migrations } from "../../../runtime/store/migrations/index.js";
import { repoRoot, startFixture } from "../support/runtime-fixture.js";
import { connectClient } from "../support/mcp-clients.js";
import { createTestIssuer } from "../support/test-issuer.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres.js";
import { runCli as skillpilot } from "../../support/run-cli.js";

const PREVIOUS = 3;
const at = "2026-11-30T09:00:00.000Z";

/** The learner tables and their order, compared before and after each migration. */
const learnerTables: [string, string[]][] = [
  ["learners", ["id"]],
  ["learner_state", ["learner_id"]],
  ["sessions", ["session_id"]],
  ["progress", ["learner_id", "goal_id"]],
  ["receipts", ["receipt_id"]],
  ["idempotency_records", ["session_id", "tool_name", "client_request_id"]],
  ["spent_capabilities", ["jti"]],
];

/** Fill a database at the previous state schema version the way that version's server wrote it. */
async function fillPreviousVersion(knex: Knex): Promise<void> {
  await knex("learners").insert([
    { id: 1, external_name: "ada", created_at: at },
    { id: 2, external_name: "grace", created_at: at },
  ]);
  await knex("learner_state").insert([
    {
      learner_id: 1,
      state_version: 7,
      state_schema_version: PREVIOUS,
      state_json: JSON.stringify({
        activeGoalId: "git-basics.commit",
        focusSkillId: "git-basics",
        recallSchedules: {},
      }),
      updated_at: at,
    },
    {
      learner_id: 2,
      state_version: 1,
      state_schema_version: PREVIOUS,
      state_json: JSON.stringify({ activeGoalId: null, focusSkillId: null }),
      updated_at: at,
    },
  ]);
  await knex("progress").insert([
    {
      learner_id: 1,
      goal_id: "git-basics.repository",
      status: "mastered",
      attempts: 1,
      mastered_at: at,
      updated_at: at,
    },
    {
      learner_id: 1,
      goal_id: "git-basics.staging",
      status: "mastered",
      attempts: 2,
      mastered_at: at,
      updated_at: at,
    },
  ]);
  await knex("sessions").insert({
    session_id: "sps_previous-version-session-000001",
    learner_id: 1,
    locale: "de",
    contract_major: 1,
    workflow_version: "coach@2.3",
    curriculum_revision: "curricula-sha256@old",
    policy_revision: 3,
    created_at: at,
    expires_at: Date.parse(at) + 3600_000,
  });
  await knex("receipts").insert({
    receipt_id: "rcp_previous0000000001",
    learner_id: 1,
    session_id: "sps_previous-version-session-000001",
    operation: "complete_skillpilot_goal",
    state_version: 7,
    recorded_at: at,
  });
  await knex("idempotency_records").insert({
    session_id: "sps_previous-version-session-000001",
    tool_name: "complete_skillpilot_goal",
    client_request_id: "7d0b8f0e-4a51-4b8e-9c1e-2f0f1c7b8e01",
    fingerprint: "f".repeat(64),
    response: '{"ok":true}',
    created_at: at,
    expires_at: Date.parse(at) + 3600_000,
  });
  await knex("spent_capabilities").insert({
    jti: "jti-previous-0001",
    use_key: "u".repeat(64),
    expires_at: Date.parse(at) + 3600_000,
  });
}

/** Learner rows as a format-5 database holds them: every session row gains its (null) lane. */
function withSessionLane(rows: Record<string, unknown[]>): Record<string, unknown[]> {
  return {
    ...rows,
    sessions: rows.sessions.map((r) => ({ ...(r as Record<string, unknown>), lane: null })),
  };
}

/** Every learner row, with the stored state schema version split off. */
async function learnerData(knex: Knex) {
  const rows: Record<string, unknown[]> = {};
  const versions = new Set<number>();
  for (const [table, key] of learnerTables)
    rows[table] = (await knex(table).select("*").orderBy(key)).map((row) => {
      const { state_schema_version, ...rest } = row as Record<string, unknown>;
      if (state_schema_version !== undefined) versions.add(Number(state_schema_version));
      return Object.fromEntries(
        Object.entries(rest).map(([k, v]) => [
          k,
          typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v,
        ]),
      );
    });
  return { rows, versions: [...versions] };
}

interface Dialect {
  name: string;
  /** A fresh, empty database; undefined to skip (PostgreSQL not installed). */
  open(): Promise<
    | {
        location: DatabaseLocation;
        env: NodeJS.ProcessEnv;
        /** CLI options that reach the database (and, on PostgreSQL, an OAuth issuer). */
        args: string[];
        cleanup(): Promise<void>;
      }
    | undefined
  >;
}

const dialects: Dialect[] = [
  {
    name: "SQLite",
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-migrate-"));
      return {
        location: { dataDir: dir },
        env: {},
        args: ["--data-dir", dir],
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "PostgreSQL",
    async open() {
      const pg: ThrowawayPostgres | undefined = await startThrowawayPostgres();
      if (!pg) return undefined;
      const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-migrate-"));
      // Beyond the embedded database the server needs a real OAuth issuer (issue #12).
      const issuer = await createTestIssuer();
      const config = path.join(dir, "skillpilot.config.json");
      await writeFile(config, JSON.stringify({ auth: issuer.config() }));
      return {
        location: { dataDir: dir, databaseUrl: pg.url },
        args: ["--data-dir", dir, "--config", config],
        env: {
          DATABASE_URL: pg.url,
          SKILLPILOT_LOG_HMAC_KEY: randomBytes(32).toString("base64url"),
          SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(generateKeyringConfig("k1")),
        },
        async cleanup() {
          await pg.stop();
          await rm(dir, { recursive: true, force: true });
          await issuer.close();
        },
      };
    },
  },
];

describe("state schema versions (L2, L12.5)", () => {
  it("each state schema version is reached by a declared migration; the server's is the last", () => {
    assert.equal(latestStateSchemaVersion, pluginIdentity.stateSchemaVersion);
    assert.equal(migrations.at(-1)?.stateSchemaVersion, latestStateSchemaVersion);
    assert.ok(
      migrations.some((m) => m.stateSchemaVersion === PREVIOUS),
      "the previous version is a migration target too",
    );
  });
});

for (const dialect of dialects)
  describe(`state migration and rollback on ${dialect.name} (L12.5)`, function () {
    this.timeout(120_000);
    let db: Awaited<ReturnType<Dialect["open"]>>;
    let args: string[];
    beforeEach(async function () {
      db = await dialect.open();
      if (!db) this.skip(); // PostgreSQL is not installed on this machine
      args = db.args;
      const knex = await openAdminKnex(db.location);
      try {
        // Every migration of the previous version (whatever lands between its marks), none after.
        await migrateForward(knex, PREVIOUS);
        assert.equal((await readStateSchemaStatus(knex)).database, PREVIOUS);
        await fillPreviousVersion(knex);
      } finally {
        await knex.destroy();
      }
    });
    const lineDirs: string[] = [];
    afterEach(async () => {
      await db?.cleanup();
      await Promise.all(lineDirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    });

    /** Run `work` on an admin connection of its own to the test's database. */
    const onDatabase = async <T>(work: (knex: Knex) => Promise<T>): Promise<T> => {
      const knex = await openAdminKnex(db!.location);
      try {
        return await work(knex);
      } finally {
        await knex.destroy();
      }
    };
    /** Record `name` as applied, as a server that ran it would. */
    const recordMigration = (knex: Knex, name: string) =>
      knex("knex_migrations").insert({ name, batch: 9, migration_time: new Date() });
    const inspect = () =>
      onDatabase(async (knex) => ({
        status: await readStateSchemaStatus(knex),
        data: await learnerData(knex),
        serverState: await knex.schema.hasTable("server_state"),
      }));

    it(
      "db migrate brings a database filled at the previous version forward, db rollback takes " +
        "it back, the learner data intact both ways; db status reports each step",
      async () => {
        const filled = await inspect();
        assert.equal(filled.status.database, PREVIOUS);
        assert.deepEqual(filled.data.versions, [PREVIOUS]);

        const status = await skillpilot(["db", "status", ...args], db!.env);
        assert.equal(status.code, 1, "pending migration");
        assert.match(status.stdout, /state schema version: 3 \(this server: 5\)/);
        assert.match(status.stdout, /learner rows: 2 at state schema 3/);
        assert.match(status.stdout, /migrations pending: 004-server-state, 005-session-lane/);

        const migrated = await skillpilot(["db", "migrate", ...args], db!.env);
        assert.equal(migrated.code, 0, migrated.stderr);
        assert.match(
          migrated.stdout,
          /from state schema 3 to 5: 004-server-state, 005-session-lane/,
        );
        const forward = await inspect();
        assert.equal(forward.status.database, 5);
        assert.deepEqual(
          forward.data.rows,
          withSessionLane(filled.data.rows),
          "learner data intact",
        );
        assert.deepEqual(forward.data.versions, [5], "rows carry the new format");
        assert.equal(forward.serverState, true);
        assert.equal((await skillpilot(["db", "status", ...args], db!.env)).code, 0);

        const lane = await skillpilot(["db", "rollback", ...args], db!.env);
        assert.equal(lane.code, 0, lane.stderr);
        assert.match(lane.stdout, /back from state schema 5 to 4: undid 005-session-lane/);
        assert.deepEqual((await inspect()).data.rows, filled.data.rows, "the lane column went");
        const rolled = await skillpilot(["db", "rollback", ...args], db!.env);
        assert.equal(rolled.code, 0, rolled.stderr);
        assert.match(rolled.stdout, /back from state schema 4 to 3: undid 004-server-state/);
        const back = await inspect();
        assert.equal(back.status.database, PREVIOUS);
        assert.deepEqual(back.data, filled.data, "learner data and its format as before");
        assert.equal(back.serverState, false);

        const further = await skillpilot(["db", "rollback", ...args], db!.env);
        assert.equal(further.code, 1, "nothing before the oldest version");
        assert.deepEqual((await inspect()).data, filled.data);
      },
    );

    it(
      "start migrates a previous-version database forward by itself, and the learner goes on " +
        "where they were",
      async () => {
        const fx = await startFixture({
          dataDir: db!.location.dataDir,
          ...(db!.location.databaseUrl
            ? {
                databaseUrl: db!.location.databaseUrl,
                capabilityKeys: generateKeyringConfig("k1"),
                logHmacKey: randomBytes(32).toString("base64url"),
              }
            : {}),
        });
        try {
          assert.deepEqual(fx.services.stateGuard?.migrated, [
            "004-server-state",
            "005-session-lane",
          ]);
          const sid = await fx.newSession("ada");
          const client = await connectClient(fx, "2026-07-28 (SDK v2)");
          try {
            const context = (await client.callTool("get_skillpilot_learning_context", {
              learningSessionId: sid,
            })) as unknown as {
              structuredContent: { stateVersion: number; currentStep?: { goalId?: string } };
            };
            assert.equal(context.structuredContent.stateVersion, 7);
            assert.equal(context.structuredContent.currentStep?.goalId, "git-basics.commit");
          } finally {
            await client.close();
          }
        } finally {
          await fx.close();
        }
        const after = await inspect();
        assert.equal(after.status.database, 5);
        assert.equal(
          after.data.rows.progress.length,
          2,
          "the mastered goals of the previous version are still there",
        );
      },
    );

    it(
      "refuses a database of a state schema version it does not know: start exits 2, " +
        "db migrate exits 1, nothing is changed",
      async () => {
        await onDatabase((knex) => recordMigration(knex, "009-from-the-future"));
        const before = await inspect();
        const start = await skillpilot(["start", "--port", "0", ...args], db!.env);
        assert.equal(start.code, 2, start.stdout + start.stderr);
        assert.match(
          start.stderr,
          /written by a newer SkillPilot server \(migrations 009-from-the-future\)/,
        );
        assert.doesNotMatch(start.stderr, /\n\s+at /, "no stack");
        const migrate = await skillpilot(["db", "migrate", ...args], db!.env);
        assert.equal(migrate.code, 1);
        assert.match(migrate.stderr, /newer SkillPilot server/);
        assert.equal((await skillpilot(["db", "status", ...args], db!.env)).code, 1);
        assert.deepEqual(await inspect(), before, "nothing migrated");

        await onDatabase(async (clean) => {
          await clean("knex_migrations").where({ name: "009-from-the-future" }).delete();
          await clean("learner_state").where({ learner_id: 2 }).update({ state_schema_version: 9 });
        });
        const rows = await skillpilot(["session", "start", "--learner", "x", ...args], db!.env);
        assert.equal(rows.code, 2);
        assert.match(rows.stderr, /learner rows at state schema version 9/);
      },
    );

    it("db rollback on a database a newer server wrote says so, like status, migrate and start (issue #13 F9)", async () => {
      await onDatabase(async (knex) => {
        await migrateForward(knex);
        await recordMigration(knex, "006-future");
      });
      const before = await inspect();
      const rollback = await skillpilot(["db", "rollback", ...args], db!.env);
      assert.equal(rollback.code, 1);
      assert.match(
        rollback.stderr,
        /written by a newer SkillPilot server \(migrations 006-future\); this server knows state schema versions up to 5/,
      );
      assert.doesNotMatch(rollback.stderr, /\?/, "no unknown version printed as ?");
      assert.deepEqual(await inspect(), before, "nothing rolled back");
    });

    it(
      "a gap or a wrong order in the migration history: db status reports it, migrate, start " +
        "and rollback refuse once with one clear line, nothing is changed (issue #13 F8)",
      async () => {
        await onDatabase(async (knex) => {
          await migrateForward(knex);
          await knex("knex_migrations").where({ name: "002-spent-capabilities" }).delete();
        });
        const before = await inspect();
        const status = await skillpilot(["db", "status", ...args], db!.env);
        assert.equal(status.code, 1);
        assert.match(
          status.stdout,
          /state schema version: unknown \(inconsistent migration history\)/,
        );
        assert.match(status.stdout, /migrations missing from the history: 002-spent-capabilities/);
        assert.match(status.stdout, /migrations pending: none/);
        assert.match(status.stdout, /refused: the database's migration history is inconsistent/);
        assert.doesNotMatch(status.stdout, /start \(or db migrate\) migrates it/);
        const message =
          /migration history is inconsistent \(002-spent-capabilities missing although later migrations are applied\).*Restore the knex_migrations rows/;
        for (const [command, code] of [
          [["db", "migrate"], 1],
          [["db", "rollback"], 1],
          [["start", "--port", "0"], 2],
        ] as const) {
          const run = await skillpilot([...command, ...args], db!.env);
          assert.equal(run.code, code, `${command.join(" ")}: ${run.stdout}${run.stderr}`);
          assert.match(run.stderr, message);
          assert.equal(run.stderr.trim().split("\n").length, 1, `one line: ${run.stderr}`);
        }
        assert.deepEqual(await inspect(), before, "nothing changed");

        // Recorded again, but after the migrations it precedes.
        await onDatabase((knex) => recordMigration(knex, "002-spent-capabilities"));
        const reordered = await skillpilot(["db", "status", ...args], db!.env);
        assert.equal(reordered.code, 1);
        assert.match(reordered.stdout, /migrations recorded out of order: 002-spent-capabilities/);
        const migrate = await skillpilot(["db", "migrate", ...args], db!.env);
        assert.equal(migrate.code, 1);
        assert.match(migrate.stderr, /002-spent-capabilities recorded out of order or twice/);
      },
    );

    it(
      "a migration that fails for another reason than a concurrent one is not retried: migrate " +
        "and start stop at once with one line naming it (issue #13 F8)",
      async () => {
        // In the way of 004-server-state.
        await onDatabase((knex) =>
          knex.schema.createTable("server_state", (t) => t.string("key").primary()),
        );
        for (const [command, code] of [
          [["db", "migrate"], 2],
          [["start", "--port", "0"], 2],
        ] as const) {
          const started = Date.now();
          const run = await skillpilot([...command, ...args], db!.env);
          assert.equal(run.code, code, `${command.join(" ")}: ${run.stdout}${run.stderr}`);
          assert.match(run.stderr, /migration 004-server-state failed: .*server_state/);
          assert.equal(run.stderr.trim().split("\n").length, 1, `one line: ${run.stderr}`);
          assert.ok(Date.now() - started < 10_000, "no retries");
        }
        assert.equal((await inspect()).status.database, PREVIOUS, "nothing migrated");
      },
    );

    it(
      "db rollback drops the floor, and migrating forward again seeds it from the sessions: a " +
        "start on a lowered line is still refused (issue #13 F2, L11)",
      async () => {
        // Serve revision 4 once: a session at 4, the floor at 4.
        const line = JSON.parse(
          await readFile(path.join(repoRoot, "release/line.json"), "utf8"),
        ) as Record<string, unknown>;
        const configAt = args.indexOf("--config");
        const base = configAt === -1 ? {} : JSON.parse(await readFile(args[configAt + 1], "utf8"));
        const lineArgs = async (policyRevision: number) => {
          const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-line-"));
          const lineFile = path.join(dir, "line.json");
          await writeFile(lineFile, JSON.stringify({ ...line, policyRevision }));
          const config = path.join(dir, "skillpilot.config.json");
          await writeFile(config, JSON.stringify({ ...base, lineFile }));
          lineDirs.push(dir);
          return ["--data-dir", db!.location.dataDir, "--config", config];
        };
        const served = await skillpilot(
          ["session", "start", "--learner", "ada", ...(await lineArgs(4))],
          db!.env,
        );
        assert.equal(served.code, 0, served.stderr);
        const floor = () =>
          onDatabase(async (knex) =>
            Number(
              (await knex("server_state").where({ key: "policy_revision_floor" }).first())?.value,
            ),
          );
        assert.equal(await floor(), 4);

        // Back to format 3, the one without the floor: two steps (5 → 4 → 3).
        for (const step of [1, 2]) {
          const rolled = await skillpilot(["db", "rollback", ...args], db!.env);
          assert.equal(rolled.code, 0, `step ${step}: ${rolled.stderr}`);
        }
        assert.equal((await inspect()).serverState, false, "the floor table is gone");

        const lowered = await skillpilot(["start", "--port", "0", ...(await lineArgs(3))], db!.env);
        assert.equal(lowered.code, 2, lowered.stdout + lowered.stderr);
        assert.match(lowered.stderr, /policyRevision 3 is below 4, the highest revision/);
        assert.equal(await floor(), 4, "seeded from the sessions by the migration start ran");
      },
    );
  });
