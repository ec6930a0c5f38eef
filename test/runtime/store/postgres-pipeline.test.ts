import assert from "node:assert/strict";
import pg from "pg";
import { SERIALIZABLE_SESSION, SharedPipeline } from "../../../runtime/store/postgres-pipeline.js";
import { countRoundTrips } from "../support/round-trip-counter.js";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../support/throwaway-postgres.js";

const show = { name: "t_isolation", text: "SHOW transaction_isolation", values: [] };
const echo = (n: number) => ({ name: "t_echo", text: "SELECT $1::int AS n", values: [n] });

describe("PostgreSQL shared pipelined connections", function () {
  this.timeout(60_000);
  let db: ThrowawayPostgres | undefined;

  before(async function () {
    db = await startThrowawayPostgres();
    if (!db) this.skip(); // PostgreSQL is not installed on this machine
  });
  after(async () => {
    await db?.stop();
  });

  it("runs each statement of connections set up SERIALIZABLE as a SERIALIZABLE transaction; others at the default", async () => {
    const serializable = new SharedPipeline(db!.url, 2, SERIALIZABLE_SESSION);
    const plain = new SharedPipeline(db!.url, 2);
    try {
      const levels = await Promise.all(
        Array.from({ length: 6 }, () =>
          serializable.query<{ transaction_isolation: string }>(show),
        ),
      );
      assert.deepEqual(
        new Set(levels.map((r) => r.rows[0].transaction_isolation)),
        new Set(["serializable"]),
      );
      assert.equal(
        (await plain.query<{ transaction_isolation: string }>(show)).rows[0].transaction_isolation,
        "read committed",
      );
    } finally {
      await serializable.close();
      await plain.close();
    }
  });

  it("pipelines statements sent at once: one round trip, each answered on its own, a failing one alone failing", async () => {
    const shared = new SharedPipeline(db!.url, 1);
    try {
      await shared.query(echo(0));
      let answers: PromiseSettledResult<pg.QueryResult>[] = [];
      const trips = await countRoundTrips(async () => {
        answers = await Promise.allSettled([
          shared.query(echo(1)),
          shared.query({ name: "t_fail", text: "SELECT 1 / $1::int", values: [0] }),
          shared.query(echo(3)),
        ]);
      });
      assert.equal(trips, 1);
      assert.equal(answers[0].status === "fulfilled" && answers[0].value.rows[0].n, 1);
      assert.equal(
        answers[1].status === "rejected" && (answers[1].reason as pg.DatabaseError).code,
        "22012",
      );
      assert.equal(answers[2].status === "fulfilled" && answers[2].value.rows[0].n, 3);
    } finally {
      await shared.close();
    }
  });

  it("opens another connection while one is busy, up to its size", async () => {
    const shared = new SharedPipeline(db!.url, 2);
    try {
      const pids = await Promise.all(
        Array.from({ length: 4 }, () =>
          shared.query<{ pid: number }>({
            name: "t_pid",
            text: "SELECT pg_backend_pid() AS pid, pg_sleep(0.05)",
            values: [],
          }),
        ),
      );
      assert.equal(new Set(pids.map((r) => r.rows[0].pid)).size, 2);
    } finally {
      await shared.close();
    }
  });

  it("replaces a connection the server ended: the next statement runs on a new one", async () => {
    const shared = new SharedPipeline(db!.url, 1, SERIALIZABLE_SESSION);
    const admin = new pg.Client({ connectionString: db!.url });
    await admin.connect();
    try {
      const first = (
        await shared.query<{ pid: number }>({
          name: "t_pid1",
          text: "SELECT pg_backend_pid() AS pid",
          values: [],
        })
      ).rows[0].pid;
      await admin.query("SELECT pg_terminate_backend($1)", [first]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await shared.query<{ pid: number; transaction_isolation: string }>({
        name: "t_pid2",
        text: "SELECT pg_backend_pid() AS pid, current_setting('transaction_isolation') AS transaction_isolation",
        values: [],
      });
      assert.notEqual(next.rows[0].pid, first);
      assert.equal(next.rows[0].transaction_isolation, "serializable");
    } finally {
      await admin.end();
      await shared.close();
    }
  });
});
