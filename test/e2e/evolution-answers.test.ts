import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import knexFactory from "knex";
import { createAjv } from "../../json-schema/ajv.js";
import { completeGoalRule } from "../../runtime/domain/handlers/complete-skillpilot-goal.handler.js";
import { coachHandlers } from "../../runtime/domain/handlers/index.js";
import { writeHandler } from "../../runtime/domain/write-pipeline.js";
import type { ServeOptions } from "../../runtime/served-contracts.js";
import { connectClient, errorCode } from "../runtime/support/mcp-clients.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import { cli, copyProject, removeProject } from "../release/support/temp-project.js";
import type { Wire } from "../support/wire.js";
import { activeGoal } from "./support/active-goal.js";
import { publishedProject, storeOverrides } from "./support/evolution-project.js";
import { type ContractRevision, replacedCompleteGoal } from "./support/contract-revision.js";

const ajv = createAjv({ strict: false });
const valid = (schema: unknown, value: unknown) => ajv.validate(schema as object, value) as boolean;
const OLD = "complete_skillpilot_goal";
const NEW = "complete_skillpilot_active_goal";

const withReplacement = replacedCompleteGoal;

const asOld = (decision: unknown) => (decision === "mastered" ? "achieved" : "needsMorePractice");
const asNew = (decision: unknown) => (decision === "achieved" ? "mastered" : "practiceMore");

/**
 * The backend after the rename as a team writes it: the replacement has its own handler (the
 * domain rule reused under the new name, so its receipts name it), the context steers to the new
 * name (the edit in full-context.ts), and the old name runs through an adapter.
 */
function renamedBackend(
  revision: ContractRevision,
  overrides: { output?: (o: Wire) => unknown; replacement?: (o: Wire) => Wire } = {},
): ServeOptions {
  const replacement = writeHandler({
    ...completeGoalRule,
    tool: NEW as never,
    apply: (input: Wire, ctx: never) =>
      completeGoalRule.apply({ ...input, decision: asOld(input.decision) } as never, ctx),
    respond: (committed: never) =>
      (overrides.replacement ?? ((o) => o))(completeGoalRule.respond(committed) as Wire) as never,
  } as never);
  return {
    contract: revision.contract,
    handlers: {
      ...coachHandlers,
      get_skillpilot_learning_context: async (input: never, ctx: never) =>
        JSON.parse(
          JSON.stringify(
            await coachHandlers.get_skillpilot_learning_context(input, ctx),
          ).replaceAll(`"${OLD}"`, `"${NEW}"`),
        ),
      [NEW]: replacement,
    } as never,
    adapters: {
      [OLD]: {
        input: (input: Wire) => ({ ...input, decision: asNew(input.decision) }),
        output: overrides.output ?? ((output: Wire) => output),
      },
    } as never,
  };
}

/** Everything a write leaves in the store the server uses (the SQLite file, or PostgreSQL). */
async function footprint(fx: RuntimeFixture, pg: ThrowawayPostgres | undefined) {
  const db = pg ? knexFactory({ client: "pg", connection: pg.url }) : fx.db;
  try {
    const count = async (table: string) => Number((await db(table).count({ n: "*" }))[0].n);
    return {
      receipts: await count("receipts"),
      idempotency: await count("idempotency_records"),
      versions: Number((await db("learner_state").sum({ v: "state_version" }))[0].v),
      attempts: Number((await db("progress").sum({ a: "attempts" }))[0].a ?? 0),
    };
  } finally {
    if (pg) await db.destroy();
  }
}

for (const store of ["SQLite", "PostgreSQL"] as const)
  describe(`contract evolution: answers as the caller's definitions name tools, nothing committed that is refused, ${store} (§10.1, G6)`, function () {
    this.timeout(180_000);
    let pg: ThrowawayPostgres | undefined;
    const overrides = () => storeOverrides(pg);
    let project: string;
    let c: ContractRevision;
    // The definitions hosts approved in 1.1.3 (the template project's release).
    let approved: Wire[];
    const published = (name: string) => approved.find((t) => t.name === name)!;
    before(async function () {
      if (store === "PostgreSQL") {
        pg = await startThrowawayPostgres();
        if (!pg) this.skip();
      }
      project = await publishedProject();
      const file = path.join(
        project,
        "contracts/published/openai/skillpilot-coach/1.1.3/contract.snapshot.json",
      );
      approved = (JSON.parse(await readFile(file, "utf8")) as { tools: Wire[] }).tools;
      c = await withReplacement();
    });
    after(async () => {
      await c?.cleanup();
      if (project) await removeProject(project);
      await pg?.stop();
    });
    const current = (name: string) => c.descriptors.find((t) => t.name === name)!;

    it("while 1.1.3 holds only the old tool, the context names the old tool (valid under 1.1.3), the replacement's own receipts name it, and an old call's receipt names the old tool; once 1.1.3 is retired the context names the replacement", async () => {
      const fx = await startFixture(overrides(), renamedBackend(c), project);
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const goal = await activeGoal(fx, client, "naming-held");
        const context = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: goal.sid,
        });
        const actions = (context.structuredContent as Wire).allowedActions as string[];
        assert.ok(actions.includes(OLD) && !actions.includes(NEW), JSON.stringify(actions));
        const held = published("get_skillpilot_learning_context");
        assert.ok(valid(held.outputSchema, context.structuredContent), JSON.stringify(ajv.errors));
        assert.doesNotMatch(JSON.stringify(context.structuredContent), new RegExp(NEW));

        const direct = await client.callTool(NEW, {
          learningSessionId: goal.sid,
          expectedStateVersion: goal.stateVersion,
          clientRequestId: randomUUID(),
          decision: "practiceMore",
        });
        assert.equal(direct.isError, undefined, JSON.stringify(direct.content));
        assert.equal((direct.structuredContent as Wire).receipt.operation, NEW);
        assert.ok(valid(current(NEW).outputSchema, direct.structuredContent));

        const old = await client.callTool(OLD, {
          learningSessionId: goal.sid,
          expectedStateVersion: (direct.structuredContent as Wire).receipt.stateVersion,
          clientRequestId: randomUUID(),
          decision: "needsMorePractice",
        });
        assert.equal(old.isError, undefined, JSON.stringify(old.content));
        assert.equal((old.structuredContent as Wire).receipt.operation, OLD);
        assert.ok(
          valid(published(OLD).outputSchema, old.structuredContent),
          JSON.stringify(ajv.errors),
        );
        assert.doesNotMatch(JSON.stringify(old.structuredContent), new RegExp(NEW));
      } finally {
        await client.close();
        await fx.close();
      }

      const retired = await copyProject(project);
      try {
        const retire = cli(
          retired,
          "retire-definitions",
          "1.1.3",
          "--reason",
          "all hosts rescanned",
        );
        assert.equal(retire.code, 0, retire.stderr);
        const after = await startFixture(overrides(), renamedBackend(c), retired);
        const client2 = await connectClient(after, "2026-07-28 (SDK v2)");
        try {
          const goal = await activeGoal(after, client2, "naming-retired");
          const context = await client2.callTool("get_skillpilot_learning_context", {
            learningSessionId: goal.sid,
          });
          const actions = (context.structuredContent as Wire).allowedActions as string[];
          assert.ok(actions.includes(NEW) && !actions.includes(OLD), JSON.stringify(actions));
          assert.ok(
            valid(
              current("get_skillpilot_learning_context").outputSchema,
              context.structuredContent,
            ),
          );
        } finally {
          await client2.close();
          await after.close();
        }
      } finally {
        await removeProject(retired);
      }
    });

    it("an adapter whose result mapping the old schema refuses: TEMPORARILY_UNAVAILABLE, the write rolled back (no receipt, version, attempt or replay record), and the exact retry is refused again without a write", async () => {
      const fx = await startFixture(
        overrides(),
        renamedBackend(c, { output: (o) => ({ ...o, receipt: { ...o.receipt, operation: 42 } }) }),
        project,
      );
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const goal = await activeGoal(fx, client, "adapter-output-refused");
        const before = await footprint(fx, pg);
        const call = {
          learningSessionId: goal.sid,
          expectedStateVersion: goal.stateVersion,
          clientRequestId: randomUUID(),
          decision: "achieved",
        };
        const answer = await client.callTool(OLD, call);
        assert.equal(errorCode(answer), "TEMPORARILY_UNAVAILABLE");
        assert.deepEqual(await footprint(fx, pg), before, "nothing committed");
        const retry = await client.callTool(OLD, call);
        assert.equal(errorCode(retry), "TEMPORARILY_UNAVAILABLE");
        assert.deepEqual(await footprint(fx, pg), before, "the retry wrote nothing either");
        // The same write through the replacement (another key) is saved once: the state was intact.
        const fresh = await client.callTool(NEW, {
          ...call,
          clientRequestId: randomUUID(),
          decision: "mastered",
        });
        assert.equal(fresh.isError, undefined, JSON.stringify(fresh.content));
        const afterWrite = await footprint(fx, pg);
        assert.equal(afterWrite.receipts, before.receipts + 1);
        assert.equal(afterWrite.attempts, before.attempts + 1);
      } finally {
        await client.close();
        await fx.close();
      }
    });

    it("a handler whose result breaks its own output schema: INTERNAL_ERROR (nothing saved, as the recovery says), the write rolled back, never sent", async () => {
      const fx = await startFixture(
        overrides(),
        renamedBackend(c, { replacement: (o) => ({ ...o, unexpected: true }) }),
        project,
      );
      const client = await connectClient(fx, "2026-07-28 (SDK v2)");
      try {
        const goal = await activeGoal(fx, client, "handler-output-refused");
        const before = await footprint(fx, pg);
        const answer = await client.callTool(NEW, {
          learningSessionId: goal.sid,
          expectedStateVersion: goal.stateVersion,
          clientRequestId: randomUUID(),
          decision: "mastered",
        });
        assert.equal(errorCode(answer), "INTERNAL_ERROR");
        assert.doesNotMatch(JSON.stringify(answer), /unexpected/);
        assert.deepEqual(await footprint(fx, pg), before, "nothing committed");
      } finally {
        await client.close();
        await fx.close();
      }
    });
  });
