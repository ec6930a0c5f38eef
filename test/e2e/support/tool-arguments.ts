import fc from "fast-check";
import * as validators from "../../../generated/validators.gen.js";

/**
 * Tool arguments derived from a tool's input schema, for the property-based tool fuzz
 * (tool-fuzz.test.ts) and the coverage-guided ingress fuzzer (test/fuzz/): valid sets, biased
 * towards real values seen on the wire, and mutated or junk sets derived from them.
 */

/** The subset of JSON Schema the tool inputs use. */
export interface Schema {
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
export type Pools = Record<string, unknown[]>;

/** An arbitrary of values valid under `schema` (the subset of JSON Schema the tool inputs use). */
export function valid(schema: Schema, pools: Pools, name = ""): fc.Arbitrary<unknown> {
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
export const noProtoKey = (v: unknown): boolean =>
  !JSON.stringify(v ?? null).includes('"__proto__"');

/** Values of every kind, for swapping in where the schema wants another. */
export const strange: fc.Arbitrary<unknown> = fc.oneof(
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
export function mutated(schema: Schema, base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
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

const pascal = (snake: string) =>
  snake.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/** A generated validator: a type guard with Ajv's `errors` of its last run. */
export type OutputValidator = ((data: unknown) => boolean) & { errors?: unknown };

/** The generated (Ajv standalone) output validator of `tool`, if the contract has that tool. */
export function outputValidator(tool: string): OutputValidator | undefined {
  const found = (validators as Record<string, unknown>)[`validate${pascal(tool)}Output`];
  return typeof found === "function" ? (found as OutputValidator) : undefined;
}
