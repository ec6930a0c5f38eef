import assert from "node:assert/strict";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { findIncompatibilities, isOpen } from "../../../checks/diff/schema-subset.js";
import { flattenAllOf, unionBranches } from "../../../checks/diff/sample.js";
import { comparable } from "../../../contract-model/normalize.js";
import { ValueChecker } from "../../../checks/diff/value-check.js";
import type { WireObject } from "../../support/wire.js";

// Small schemas over a small value universe, so random values often hit the interesting edges.
const leaf = fc.oneof(
  fc.record(
    {
      type: fc.constant("string"),
      maxLength: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      pattern: fc.option(fc.constantFrom("^a", "^[a-z]*$", "^x\\d$"), { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({
    enum: fc.uniqueArray(fc.constantFrom("a", "ab", "x1", 0, 1, true, null), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({ const: fc.constantFrom("a", 1, false) }),
  fc.record(
    {
      type: fc.constantFrom("integer", "number"),
      minimum: fc.option(fc.integer({ min: -1, max: 2 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
      multipleOf: fc.option(fc.constantFrom(2, 0.5), { nil: undefined }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constantFrom("boolean", "null") }),
  fc.record({ type: fc.constant(["string", "null"]) }),
);
const { schema } = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("object"),
    tie("array"),
    tie("union"),
  ),
  object: fc.record(
    {
      type: fc.constant("object"),
      properties: fc.record({ a: tie("schema"), b: tie("schema") }, { requiredKeys: [] }),
      required: fc.subarray(["a", "b"]),
      additionalProperties: fc.option(fc.constant(false), { nil: undefined }),
    },
    { requiredKeys: ["type", "properties", "required"] },
  ),
  array: fc.record(
    {
      type: fc.constant("array"),
      items: tie("schema"),
      maxItems: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      uniqueItems: fc.option(fc.constant(true), { nil: undefined }),
    },
    { requiredKeys: ["type", "items"] },
  ),
  // Unions, sometimes with sibling keywords that constrain every branch.
  union: fc
    .record({
      key: fc.constantFrom("anyOf", "oneOf"),
      branches: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }),
      siblings: fc.constantFrom(
        {},
        {},
        { maxLength: 1 },
        { minimum: 1 },
        { required: ["a"] },
        { type: "object" },
        { additionalProperties: false },
      ),
    })
    .map(({ key, branches, siblings }) => ({ ...siblings, [key]: branches })),
}));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(
      "",
      "a",
      "ab",
      "abc",
      "x1",
      "x12",
      "z",
      0,
      1,
      2,
      -1,
      0.5,
      3,
      10,
      11,
      true,
      false,
      null,
    ),
    tie("obj"),
    tie("arr"),
  ),
  obj: fc.record({ a: tie("value"), b: tie("value"), c: tie("value") }, { requiredKeys: [] }),
  arr: fc.array(tie("value"), { maxLength: 3 }),
}));

/**
 * A nearby "after" schema: a few edits driven by `picks` (drop or loosen a keyword, tighten a
 * bound, add or remove an enum value, recurse into a property/items/branch), so that many pairs are
 * compatible or only subtly not — the cases where a wrong "compatible" would hide.
 */
function mutate(input: unknown, picks: number[], depth = 0): unknown {
  if (typeof input !== "object" || input === null || depth > 4) return input;
  const s = structuredClone(input) as WireObject;
  const pick = picks[depth % picks.length] + depth;
  const keys = [
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "multipleOf",
    "additionalProperties",
    "maxItems",
    "uniqueItems",
    "required",
  ].filter((k) => k in s);
  switch (pick % 8) {
    case 0:
      if (keys.length) delete s[keys[pick % keys.length]];
      break;
    case 1:
      if (typeof s.maxLength === "number") s.maxLength += pick % 2 ? 1 : -1;
      else if (typeof s.maximum === "number") s.maximum += pick % 2 ? 1 : -1;
      else if (typeof s.minimum === "number") s.minimum += pick % 2 ? 1 : -1;
      break;
    case 2:
      if (Array.isArray(s.enum))
        s.enum = pick % 2 ? [...s.enum, "z"] : s.enum.slice(1).length ? s.enum.slice(1) : s.enum;
      break;
    case 3:
      if (Array.isArray(s.required))
        s.required = pick % 2 ? [...new Set([...s.required, "a"])] : s.required.slice(1);
      break;
    case 4:
      if (s.type === "integer") s.type = "number";
      else if (s.type === "number") s.type = "integer";
      else if (s.type === "string") s.type = ["string", "null"];
      break;
    case 5:
      return { anyOf: [s, { type: "null" }] };
    default:
      break;
  }
  if (s.properties)
    for (const k of Object.keys(s.properties))
      s.properties[k] = mutate(s.properties[k], picks, depth + 1);
  if (s.items) s.items = mutate(s.items, picks, depth + 1);
  for (const u of ["anyOf", "oneOf"])
    if (Array.isArray(s[u])) s[u] = s[u].map((b: unknown) => mutate(b, picks, depth + 1));
  return s;
}
const pair = fc
  .tuple(schema, fc.array(fc.nat({ max: 1000 }), { minLength: 5, maxLength: 5 }), fc.boolean())
  .map(([before, picks, swap]) => {
    const after = mutate(before, picks);
    return swap ? [after, before] : [before, after];
  });

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats.default(ajv);

/**
 * The schema with every open object closed: it accepts exactly the values that carry only declared
 * properties — the values the schema documents. Under open-object semantics the properties an open
 * object does not declare are outside its contract, so compatibility is owed to these values only.
 * Unions are split into their branches as the checker reads them (siblings merged in); callers also
 * require validity under the schema as written, so that reading cannot admit more values.
 */
function documentedOnly(input: unknown): unknown {
  if (typeof input !== "object" || input === null) return input;
  const s = flattenAllOf(input as WireObject) as WireObject;
  const branches = unionBranches(s);
  if (branches) return { anyOf: branches.map(documentedOnly) };
  const out: WireObject = { ...s };
  const objectLike =
    s.properties !== undefined ||
    s.type === "object" ||
    (Array.isArray(s.type) && s.type.includes("object"));
  if (objectLike && isOpen(s.additionalProperties ?? true)) out.additionalProperties = false;
  if (s.properties)
    out.properties = Object.fromEntries(
      Object.entries(s.properties as WireObject).map(([k, v]) => [k, documentedOnly(v)]),
    );
  if (s.items !== undefined) out.items = documentedOnly(s.items);
  return out;
}

describe("schema subset checker soundness (L12.2)", function () {
  // Spawns the CLI (tsx start-up) or runs property tests: allow for a loaded CI machine.
  this.timeout(120_000);
  it(
    "never calls a change compatible when some value the old schema documents is rejected by " +
      "the new schema (property test)",
    () => {
      const checker = new ValueChecker();
      fc.assert(
        fc.property(
          fc.oneof(pair, fc.tuple(schema, schema)),
          fc.array(value, { minLength: 60, maxLength: 60 }),
          ([before, after], values) => {
            const [s, t] = [comparable(before), comparable(after)];
            if (findIncompatibilities(s, t, checker).length > 0) return true;
            const [vs, vt] = [ajv.compile(before as object), ajv.compile(after as object)];
            const documented = ajv.compile(documentedOnly(before) as object);
            for (const v of values)
              if (vs(v) && documented(v))
                assert.equal(
                  vt(v),
                  true,
                  `compatible claimed, but ${JSON.stringify(v)} is rejected`,
                );
            return true;
          },
        ),
        { numRuns: 1500, seed: 20261130 },
      );
    },
  );

  it("every reported incompatibility with a verified witness really is one (property test)", () => {
    const checker = new ValueChecker();
    fc.assert(
      fc.property(fc.oneof(pair, fc.tuple(schema, schema)), ([before, after]) => {
        const [vs, vt] = [ajv.compile(before as object), ajv.compile(after as object)];
        for (const inc of findIncompatibilities(comparable(before), comparable(after), checker))
          if (inc.verified)
            // An undeclared property is a structural fact, not a rejection: the witness must be
            // valid under the source, and it carries a property the open target does not declare.
            assert.ok(
              vs(inc.witness) && (inc.kind === "undeclared" || !vt(inc.witness)),
              JSON.stringify(inc.witness),
            );
        return true;
      }),
      { numRuns: 1500, seed: 20261130 },
    );
  });
});
