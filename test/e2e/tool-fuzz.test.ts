import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import fc from "fast-check";
import type { ToolName } from "../../generated/handlers.gen.js";
import { toolDescriptors } from "../../generated/tools.gen.js";
import { inputValidators } from "../../runtime/mcp/input-validators.js";
import { CoachDriver } from "../runtime/support/coach-driver.js";
import {
  errorCode,
  eras,
  rpcErrorCode,
  type CoachClient,
  type ToolResult,
} from "../runtime/support/mcp-clients.js";
import { repoRoot, useServedClient } from "../runtime/support/runtime-fixture.js";
import { seedArgumentPools } from "./support/argument-pools.js";
import {
  mutated,
  outputValidator,
  type Pools,
  type Schema,
  valid,
} from "./support/tool-arguments.js";

/**
 * Issue #15 item 6 (G9, C5, C14): every tool, through the real MCP client of both protocol eras,
 * with inputs derived from its input schema (valid ones, biased towards real session ids,
 * versions, option payloads and capabilities) and mutated or junk argument sets. Every answer is a
 * success valid under the tool's output schema or a documented error code, never INTERNAL_ERROR;
 * arguments the contract's validator refuses are INVALID_INPUT (arguments that are not a JSON
 * object: the SDK's JSON-RPC -32602, before any tool runs); a refused call commits nothing.
 * Seeded: FUZZ_SEED reproduces a run (fast-check prints seed and path on a failure); FUZZ_RUNS
 * sets the mutated sets per tool and era (default 200), FUZZ_VALID_RUNS the valid ones (40).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const VALID_RUNS = Number(process.env.FUZZ_VALID_RUNS ?? 40);

/** The documented codes: schemas/envelopes/error.schema.json. */
const documentedCodes = new Set<string>(
  JSON.parse(readFileSync(`${repoRoot}/schemas/envelopes/error.schema.json`, "utf8")).properties
    .code.enum,
);
/** JSON-RPC Invalid params: the SDK's answer to a tools/call whose arguments are not an object. */
const INVALID_PARAMS = -32602;

type Outcome =
  | { kind: "result"; result: ToolResult }
  | { kind: "rpcError"; code: number | undefined; message: string };

async function call(client: CoachClient, tool: string, args: unknown): Promise<Outcome> {
  try {
    return { kind: "result", result: await client.callTool(tool, args as Record<string, unknown>) };
  } catch (error) {
    return { kind: "rpcError", code: rpcErrorCode(error), message: String(error) };
  }
}

for (const era of eras) {
  describe(`tool fuzz, ${era}: schema-derived and mutated arguments (issue #15 item 6; G9, C5, C14; FUZZ_SEED=${SEED})`, function () {
    this.timeout(180_000);
    const served = useServedClient(era, { sessionTtlSeconds: 90 * 86400 });
    const pools: Pools = {};
    let probe: Database.Database;

    before(async () => {
      probe = new Database(served.fx.dbFile, { readonly: true });
      Object.assign(pools, await seedArgumentPools(new CoachDriver(served.client, served.fx), era));
    });
    after(() => probe?.close());

    /**
     * The database's content, as a hash of every row of every table. Recomputed only when SQLite's
     * change counter moved: a refused write may still commit its (restored) pages, so the counter
     * alone would report a change where the content has none.
     */
    let seen = { version: -1, hash: "" };
    const content = (): string => {
      const version = probe.pragma("data_version", { simple: true }) as number;
      if (version === seen.version) return seen.hash;
      const hash = createHash("sha256");
      const tables = probe
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all() as { name: string }[];
      // The instance registry and its lock change with every heartbeat: operations, not data.
      const operational = new Set(["admin_lock", "server_instances"]);
      for (const { name } of tables) {
        if (operational.has(name)) continue;
        const rows = probe.prepare(`SELECT * FROM "${name}"`).all();
        hash.update(
          `${name}\n${rows
            .map((r) => JSON.stringify(r))
            .sort()
            .join("\n")}\n`,
        );
      }
      seen = { version, hash: hash.digest("hex") };
      return seen.hash;
    };

    /**
     * The properties every answer has; `expectInvalid`: the wire arguments fail the contract's
     * validator, so the answer must be INVALID_INPUT (or -32602 for a non-object).
     */
    const check = async (tool: ToolName, args: unknown, expectInvalid: boolean) => {
      const wire = JSON.parse(JSON.stringify(args ?? null)) as unknown;
      const isObject = typeof wire === "object" && wire !== null && !Array.isArray(wire);
      const before = content();
      const outcome = await call(served.client, tool, args);
      const context = `${tool} ${JSON.stringify(wire)?.slice(0, 300)}`;
      if (outcome.kind === "rpcError") {
        assert.ok(
          !isObject,
          `a protocol error for object arguments: ${outcome.message} (${context})`,
        );
        assert.equal(outcome.code, INVALID_PARAMS, context);
        assert.equal(content(), before, `a refused call committed something (${context})`);
        return;
      }
      assert.ok(isObject, `a tool result for non-object arguments (${context})`);
      const { result } = outcome;
      if (!result.isError) {
        assert.ok(!expectInvalid, `invalid arguments succeeded (${context})`);
        assert.ok(
          outputValidator(tool)?.(result.structuredContent),
          `output outside the schema (${context})`,
        );
        return;
      }
      const code = errorCode(result);
      assert.ok(code && documentedCodes.has(code), `undocumented answer ${code} (${context})`);
      assert.notEqual(code, "INTERNAL_ERROR", context);
      if (expectInvalid) assert.equal(code, "INVALID_INPUT", context);
      assert.equal(result.structuredContent, undefined, context);
      assert.equal(content(), before, `a refused call committed something (${context})`);
    };

    for (const descriptor of toolDescriptors) {
      const tool = descriptor.name as ToolName;
      const schema = descriptor.inputSchema as Schema;
      const validate = inputValidators[tool] as (data: unknown) => boolean;

      it(`${tool}: ${VALID_RUNS} schema-valid inputs answer a valid output or a documented code`, async () => {
        await fc.assert(
          fc.asyncProperty(valid(schema, pools), async (args) => {
            assert.ok(validate(args), `the generator made invalid input ${JSON.stringify(args)}`);
            await check(tool, args, false);
          }),
          { seed: SEED, numRuns: VALID_RUNS },
        );
      });

      it(`${tool}: ${RUNS} mutated or junk argument sets are refused with documented codes, changing nothing`, async () => {
        await fc.assert(
          fc.asyncProperty(mutated(schema, valid(schema, pools)), async (args) => {
            const wire = JSON.parse(JSON.stringify(args ?? null)) as unknown;
            await check(tool, args, !validate(wire));
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });
    }
  });
}
