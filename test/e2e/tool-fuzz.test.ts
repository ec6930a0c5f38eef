import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import fc from "fast-check";
import type { ToolName } from "../../generated/handlers.gen.js";
import { toolDescriptors } from "../../generated/tools.gen.js";
import * as validators from "../../generated/validators.gen.js";
import { inputValidators } from "../../runtime/mcp/input-validators.js";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import {
  errorCode,
  eras,
  rpcErrorCode,
  type CoachClient,
  type ToolResult,
} from "../runtime/support/mcp-clients.js";
import { repoRoot, useServedClient } from "../runtime/support/runtime-fixture.js";

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

interface Schema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  maxLength?: number;
}

/** Real values seen on the wire, by property name: valid inputs pick them half of the time. */
type Pools = Record<string, unknown[]>;

/** An arbitrary of values valid under `schema` (the subset of JSON Schema the tool inputs use). */
function valid(schema: Schema, pools: Pools, name = ""): fc.Arbitrary<unknown> {
  const pool = pools[name];
  const own = ((): fc.Arbitrary<unknown> => {
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case "object": {
        const props = Object.entries(schema.properties ?? {});
        return fc.record(Object.fromEntries(props.map(([k, s]) => [k, valid(s, pools, k)])), {
          requiredKeys: schema.required ?? [],
        });
      }
      case "array":
        return fc.array(valid(schema.items ?? {}, pools), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 8, 8),
        });
      case "boolean":
        return fc.boolean();
      case "integer":
        return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
      case "string":
        if (schema.format === "uuid") return fc.uuid();
        if (schema.pattern)
          return fc
            .stringMatching(new RegExp(schema.pattern, "u"))
            .filter((s) => s.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY));
        return fc.string({ maxLength: schema.maxLength ?? 40 });
      default:
        throw new Error(`the fuzz generator does not know schema ${JSON.stringify(schema)}`);
    }
  })();
  return pool && pool.length > 0 ? fc.oneof(fc.constantFrom(...pool), own) : own;
}

/** No own `__proto__` anywhere: an SDK client may drop it (prototype-keys.test.ts covers it raw). */
const noProtoKey = (v: unknown) => !JSON.stringify(v ?? null).includes('"__proto__"');

/** Values of every kind, for swapping in where the schema wants another. */
const strange: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).filter(noProtoKey),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constant("x".repeat(20_000)),
  fc.constant("sps_\u0000\u202e/../../etc/passwd"),
  fc.double(),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(-1, 0.5, 1e308, -0, 2 ** 53, null, true, false, [], {}, ""),
  // 200 levels of nesting.
  fc.constant(JSON.parse(`${"[".repeat(200)}1${"]".repeat(200)}`)),
);

/** Mutated or junk argument sets derived from a valid one. */
function mutated(schema: Schema, base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const names = Object.keys(schema.properties ?? {});
  const required = schema.required ?? [];
  const asObject = base as fc.Arbitrary<Record<string, unknown>>;
  const extraKey = fc
    .oneof(
      fc.constantFrom("constructor", "prototype", "toString", "learnerAnswer", "notes", ""),
      fc.string({ maxLength: 20 }),
    )
    .filter((k) => !names.includes(k) && k !== "__proto__");
  return fc.oneof(
    // A required property missing.
    {
      weight: 2,
      arbitrary: fc.tuple(asObject, fc.constantFrom(...required)).map(([v, k]) => {
        const { [k]: _dropped, ...rest } = v;
        return rest;
      }),
    },
    // An unknown property (C5).
    {
      weight: 2,
      arbitrary: fc.tuple(asObject, extraKey, strange).map(([v, k, x]) => ({ ...v, [k]: x })),
    },
    // A property of the wrong type, shape or range.
    {
      weight: 3,
      arbitrary: fc
        .tuple(asObject, fc.constantFrom(...names), strange)
        .map(([v, k, x]) => ({ ...v, [k]: x })),
    },
    // Several at once.
    {
      weight: 2,
      arbitrary: fc
        .tuple(asObject, fc.dictionary(fc.constantFrom(...names), strange, { maxKeys: 4 }))
        .map(([v, d]) => ({ ...v, ...d })),
    },
    // Junk for the whole argument set: arrays, strings, numbers, null, random objects.
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).filter(noProtoKey) },
    { weight: 1, arbitrary: fc.constantFrom(null, [], "", 0, {}) },
  );
}

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

const pascal = (snake: string) =>
  snake.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
const outputValidator = (tool: string) =>
  (validators as Record<string, unknown>)[`validate${pascal(tool)}Output`] as (
    data: unknown,
  ) => boolean;

for (const era of eras) {
  describe(`tool fuzz, ${era}: schema-derived and mutated arguments (issue #15 item 6; G9, C5, C14; FUZZ_SEED=${SEED})`, function () {
    this.timeout(180_000);
    const served = useServedClient(era, { sessionTtlSeconds: 90 * 86400 });
    const pools: Pools = {};
    let probe: Database.Database;

    before(async () => {
      probe = new Database(served.fx.dbFile, { readonly: true });
      const d = new CoachDriver(served.client, served.fx);
      const add = (name: string, value: unknown) => {
        pools[name] = [...(pools[name] ?? []), value];
      };
      // A new learner (an open choice), one with a goal active, one whose recall is due with an
      // open batch and its grading capability, one with a finished skill (assessment), and a deck.
      const fresh = await d.fx.newSession(`fuzz-fresh-${era}`);
      const open = await d.context(fresh);
      for (const o of open.options) add("option", o.payload);
      const active = await d.sessionWithMastered(`fuzz-active-${era}`, 0);
      const { sid: recallSid, ctx } = await d.sessionWithMastered(`fuzz-recall-${era}`, 1);
      d.advanceDays(2);
      await d.master(ctx);
      const started = await d.ok("start_skillpilot_verified_recall", {
        learningSessionId: recallSid,
      });
      add("batchCapability", started.batchCapability);
      add(
        "gradingCapability",
        (
          await d.ok("get_skillpilot_verified_recall_answers", {
            learningSessionId: recallSid,
            batchCapability: started.batchCapability,
          })
        ).gradingCapability,
      );
      const exam = await d.sessionWithMastered(`fuzz-exam-${era}`, 5);
      if (exam.ctx.currentStep?.assessmentCapability)
        add("assessmentCapability", exam.ctx.currentStep.assessmentCapability);
      const deck = await d.call("start_skillpilot_memory_practice", {
        learningSessionId: active.sid,
      });
      const practice = (deck._meta as Out | undefined)?.["skillpilot/memoryPractice"];
      if (practice) add("practiceCapability", practice.practiceCapability);
      for (const sid of [fresh, active.sid, recallSid, exam.sid]) {
        add("learningSessionId", sid);
        add("expectedStateVersion", (await d.context(sid)).stateVersion);
      }
      for (const goalId of ["git-basics.repository", "git-basics.staging", "git-basics.commit"])
        add("goalId", goalId);
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
          outputValidator(tool)(result.structuredContent),
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
