import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import knexFactory, { type Knex } from "knex";
import { generateKeyringConfig } from "../../runtime/capability/index.js";
import { connectClient, errorCode, type CoachClient } from "../runtime/support/mcp-clients.js";
import { startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import type { WireObject } from "../support/wire.js";

type Context = WireObject;

describe("the runtime on PostgreSQL (DATABASE_URL), SDK v2 client", function () {
  this.timeout(60_000);
  let pg: ThrowawayPostgres | undefined;
  let fx: RuntimeFixture;
  let client: CoachClient;
  let db: Knex;

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    // Nodes sharing a database share their keys from configuration (required with DATABASE_URL).
    fx = await startFixture({
      databaseUrl: pg.url,
      capabilityKeys: generateKeyringConfig("k1"),
      logHmacKey: randomBytes(32).toString("base64url"),
    });
    client = await connectClient(fx, "2026-07-28 (SDK v2)");
    db = knexFactory({ client: "pg", connection: pg.url });
  });
  after(async () => {
    await client?.close();
    await fx?.close();
    await db?.destroy();
    await pg?.stop();
  });

  it("runs a full turn, replays a retry once, and lets 1 of 8 concurrent writers win (C2, G5, G6)", async () => {
    const sid = await fx.newSession("pg-turn");
    const ctx = (
      await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid })
    ).structuredContent as Context;
    const teach = (
      await client.callTool("choose_skillpilot_option", {
        learningSessionId: sid,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      })
    ).structuredContent as Context;
    assert.equal(teach.requiredAction, "teachActiveGoal");

    const args = {
      learningSessionId: sid,
      expectedStateVersion: teach.stateVersion,
      clientRequestId: randomUUID(),
      decision: "achieved",
    };
    const first = await client.callTool("complete_skillpilot_goal", args);
    assert.equal(
      JSON.stringify(await client.callTool("complete_skillpilot_goal", args)),
      JSON.stringify(first),
    );
    const after = (first.structuredContent as Context).successor;

    const clients = await Promise.all(
      Array.from({ length: 8 }, () => connectClient(fx, "2026-07-28 (SDK v2)")),
    );
    try {
      const results = await Promise.all(
        clients.map((c) =>
          c.callTool("complete_skillpilot_goal", {
            learningSessionId: sid,
            expectedStateVersion: after.stateVersion,
            clientRequestId: randomUUID(),
            decision: "achieved",
          }),
        ),
      );
      assert.equal(results.filter((r) => !r.isError).length, 1);
      assert.deepEqual(
        results.filter((r) => r.isError).map(errorCode),
        Array(7).fill("STATE_CONFLICT"),
      );
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    const { learner_id } = await db("sessions").where({ session_id: sid }).first();
    assert.equal(
      (await db("learner_state").where({ learner_id }).first()).state_version,
      after.stateVersion + 1,
    );
    assert.equal(
      (await db("receipts").where({ learner_id, operation: "complete_skillpilot_goal" })).length,
      2,
    );
  });
});
