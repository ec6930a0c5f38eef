import { createRequire } from "node:module";
import type randexpModule from "randexp";

// randexp is CommonJS (`module.exports = RandExp`) but its typings declare an ES default export.
type RandExpClass = typeof randexpModule.default;
type RandExp = InstanceType<RandExpClass>;
const require = createRequire(import.meta.url);
let randExpClass: RandExpClass | undefined;
/** randexp (and its parser) is loaded when a diff first needs a pattern sample, not at start. */
const loadRandExp = (): RandExpClass => {
  randExpClass ??= require("randexp") as RandExpClass;
  return randExpClass;
};
import {
  additionalOf,
  declaredTypes,
  enumerated,
  isObject,
  propertiesOf,
  requiredOf,
  type JsonObject,
  type JsonType,
  type Schema,
} from "../../json-schema/schema-facts.js";

/** One known-good example per format, and one string that is not that format. */
const formatSamples: Record<string, readonly string[]> = {
  uuid: ["123e4567-e89b-42d3-a456-426614174000", "123E4567-E89B-42D3-A456-426614174000"],
  "date-time": [
    "2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00+01:00",
    "2026-01-01T00:00:00.5Z",
    "2026-01-01t00:00:00z",
  ],
  date: ["2026-01-01"],
  time: ["00:00:00Z", "00:00:00+01:00"],
  email: ["learner@example.com", "Learner.Name+tag@example.co.uk"],
  uri: ["https://example.com/x", "urn:isbn:0451450523", "http://example.com:8080/a?b=c#d"],
  "uri-reference": ["/x", "https://example.com/x"],
  url: ["https://example.com/x"],
  hostname: ["example.com", "a-b.example.com"],
  ipv4: ["192.0.2.1"],
  ipv6: ["2001:db8::1"],
  duration: ["PT1H", "P1D"],
  "json-pointer": ["/x"],
  regex: ["x"],
  byte: ["eA=="],
};

/** A tiny deterministic PRNG (mulberry32), seeded from a string, so witnesses are reproducible. */
function seeded(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  return () => {
    h |= 0;
    h = (h + 0x6d2b79f5) | 0;
    let t = Math.imul(h ^ (h >>> 15), 1 | h);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Building a RandExp is costly (character ranges); samples are deterministic, so compute each set
// once.
const sampleCache = new Map<string, string[]>();

/** Up to `count` distinct strings matching `pattern` (seeded, short repetitions first). */
export function patternSamples(pattern: string, count: number): string[] {
  const key = `${count} ${pattern}`;
  let cached = sampleCache.get(key);
  if (!cached) {
    cached = generatePatternSamples(pattern, count);
    sampleCache.set(key, cached);
  }
  return cached;
}

function generatePatternSamples(pattern: string, count: number): string[] {
  const out = new Set<string>();
  let gen: RandExp;
  try {
    const RandExp = loadRandExp();
    gen = new RandExp(new RegExp(pattern, "u"));
  } catch {
    return [];
  }
  const rnd = seeded(pattern);
  gen.randInt = (a: number, b: number) => a + Math.floor(rnd() * (b - a + 1));
  for (let i = 0; i < count * 3 && out.size < count; i++) {
    gen.max = i < count ? 3 : 20;
    out.add(gen.gen());
  }
  return [...out];
}

const len = (s: string) => [...s].length;

/** Candidate strings for a string schema: format/pattern examples first, then plain fillers. */
export function stringCandidates(schema: JsonObject, count = 24): string[] {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  const raw: string[] = [];
  // Every spelling a format admits that a pattern added beside it may not (offsets, fractions, case).
  if (typeof schema.format === "string") raw.push(...(formatSamples[schema.format] ?? []));
  if (typeof schema.pattern === "string") raw.push(...patternSamples(schema.pattern, count));
  const fill = Math.max(min, 1);
  raw.push(
    "a".repeat(min),
    "a".repeat(fill),
    "x".repeat(Math.min(Math.max(min, 8), max === Infinity ? 8 : max)),
    "0",
    "A-1",
    "not a value ~",
  );
  if (max !== Infinity) raw.push("a".repeat(max));
  return [...new Set(raw)].filter((s) => len(s) >= min && len(s) <= max);
}

/** The smallest number a numeric schema admits near its lower bound (integers when `integer`). */
export function numberCandidates(schema: JsonObject, integer: boolean): number[] {
  const lo =
    typeof schema.minimum === "number"
      ? schema.minimum
      : typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const hi =
    typeof schema.maximum === "number"
      ? schema.maximum
      : typeof schema.exclusiveMaximum === "number"
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  const step = typeof schema.multipleOf === "number" ? schema.multipleOf : undefined;
  const raw = [lo, hi, 0, 1, -1, 1000000, -1000000, integer ? 7 : 0.5].filter(
    (n): n is number => n !== undefined,
  );
  const fix = (n: number) => {
    let v = integer ? Math.ceil(n) : n;
    if (step) v = Math.ceil(v / step) * step;
    return v;
  };
  return [...new Set(raw.map(fix))].filter(
    (n) => (lo === undefined || n >= lo) && (hi === undefined || n <= hi),
  );
}

/** Merge `allOf` members into their parent (shallow: a superset of the real intersection). */
export function flattenAllOf(schema: JsonObject): JsonObject {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  let out: JsonObject = rest;
  for (const member of allOf as Schema[])
    if (isObject(member)) out = mergeShallow(out, flattenAllOf(member));
  return out;
}

/** Shallow merge of two schemas: properties and required unite; other keywords: `b` wins. */
export function mergeShallow(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a, ...b };
  if (isObject(a.properties) || isObject(b.properties))
    out.properties = { ...propertiesOf(a), ...propertiesOf(b) };
  if (Array.isArray(a.required) || Array.isArray(b.required))
    out.required = [...new Set([...requiredOf(a), ...requiredOf(b)])];
  return out;
}

/** Branches of a union (`anyOf`/`oneOf`), each merged with the parent's other keywords. */
export function unionBranches(schema: JsonObject): JsonObject[] | undefined {
  const key = Array.isArray(schema.oneOf)
    ? "oneOf"
    : Array.isArray(schema.anyOf)
      ? "anyOf"
      : undefined;
  if (!key) return undefined;
  const { [key]: branches, ...rest } = schema;
  return (branches as Schema[]).map((b) =>
    isObject(b) ? mergeShallow(rest, flattenAllOf(b)) : b === true ? rest : { ...rest, not: {} },
  );
}

/**
 * A value valid under `schema`, best effort and deterministic: required properties only,
 * minimum array lengths, the first enum value or union branch. The caller proves it with Ajv.
 */
export function sampleValue(schema: Schema, depth = 0, preferType?: JsonType): unknown {
  if (schema === true) return preferType === "string" ? "a" : null;
  if (schema === false || depth > 32) return null;
  const s = flattenAllOf(schema);
  const values = enumerated(s);
  if (values) return values[0];
  const branches = unionBranches(s);
  if (branches) return sampleValue(branches[0], depth + 1, preferType);
  const types = declaredTypes(s);
  const t: JsonType =
    preferType && types.has(preferType)
      ? preferType
      : ((["object", "array", "string", "integer", "number", "boolean", "null"] as const).find(
          (x) => types.has(x),
        ) ?? "null");
  return sampleOfType(s, t, depth);
}

/** A value of type `t` meeting the schema's keywords for that type. */
export function sampleOfType(s: JsonObject, t: JsonType, depth = 0): unknown {
  switch (t) {
    case "string":
      return stringCandidates(s, 4)[0] ?? "a";
    case "integer":
    case "number":
      return numberCandidates(s, t === "integer")[0] ?? 0;
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const item = isObject(s.items) || typeof s.items === "boolean" ? (s.items as Schema) : true;
      // Tuple positions take their own schema; `contains` needs `minContains` (1) matching items,
      // placed after the tuple.
      const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
      const contains = isObject(s.contains) ? s.contains : undefined;
      const need = contains ? (typeof s.minContains === "number" ? s.minContains : 1) : 0;
      const n = Math.max(
        typeof s.minItems === "number" ? s.minItems : 0,
        need && prefix.length + need,
      );
      const matching: Schema | undefined = contains
        ? isObject(item)
          ? mergeShallow(item, contains)
          : contains
        : undefined;
      return Array.from({ length: n }, (_, i) =>
        sampleValue(
          i < prefix.length ? prefix[i] : matching && i < prefix.length + need ? matching : item,
          depth + 1,
        ),
      );
    }
    case "object": {
      const props = propertiesOf(s);
      const out: JsonObject = {};
      for (const name of requiredOf(s))
        out[name] = sampleValue(props[name] ?? additionalOf(s), depth + 1);
      return out;
    }
  }
}
