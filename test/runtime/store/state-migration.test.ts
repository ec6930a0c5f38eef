import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
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
import { startFixture } from "../support/runtime-fixture.js";
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
          await rm(path.dirname(issuer.jwksFile), { recursive: true, force: true });
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
    afterEach(() => db?.cleanup());

    const inspect = async () => {
      const knex = await openAdminKnex(db!.location);
      try {
        return {
          status: await readStateSchemaStatus(knex),
          data: await learnerData(knex),
          serverState: await knex.schema.hasTable("server_state"),
        };
      } finally {
        await knex.destroy();
      }
    };

    it(
      "db migrate brings a database filled at the previous version forward, db rollback takes " +
        "it back, the learner data intact both ways; db status reports each step",
      async () => {
        const filled = await inspect();
        assert.equal(filled.status.database, PREVIOUS);
        assert.deepEqual(filled.data.versions, [PREVIOUS]);

        const status = await skillpilot(["db", "status", ...args], db!.env);
        assert.equal(status.code, 1, "pending migration");
        assert.match(status.stdout, /state schema version: 3 \(this server: 4\)/);
        assert.match(status.stdout, /learner rows: 2 at state schema 3/);
        assert.match(status.stdout, /migrations pending: 004-server-state/);

        const migrated = await skillpilot(["db", "migrate", ...args], db!.env);
        assert.equal(migrated.code, 0, migrated.stderr);
        assert.match(migrated.stdout, /from state schema 3 to 4: 004-server-state/);
        const forward = await inspect();
        assert.equal(forward.status.database, 4);
        assert.deepEqual(forward.data.rows, filled.data.rows, "learner data intact");
        assert.deepEqual(forward.data.versions, [4], "rows carry the new format");
        assert.equal(forward.serverState, true);
        assert.equal((await skillpilot(["db", "status", ...args], db!.env)).code, 0);

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
          assert.deepEqual(fx.services.stateGuard?.migrated, ["004-server-state"]);
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
        assert.equal(after.status.database, 4);
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
        const knex = await openAdminKnex(db!.location);
        try {
          await knex("knex_migrations").insert({
            name: "009-from-the-future",
            batch: 9,
            migration_time: new Date(),
          });
        } finally {
          await knex.destroy();
        }
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

        const clean = await openAdminKnex(db!.location);
        try {
          await clean("knex_migrations").where({ name: "009-from-the-future" }).delete();
          await clean("learner_state").where({ learner_id: 2 }).update({ state_schema_version: 9 });
        } finally {
          await clean.destroy();
        }
        const rows = await skillpilot(["session", "start", "--learner", "x", ...args], db!.env);
        assert.equal(rows.code, 2);
        assert.match(rows.stderr, /learner rows at state schema version 9/);
      },
    );
  });
