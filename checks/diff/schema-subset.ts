import { escapePointerSegment } from "../../diagnostics/diagnostic.js";
import {
  acceptsAnything,
  additionalOf,
  admitsType,
  declaredTypes,
  enumerated,
  forbiddenOf,
  isObject,
  jsonEqual,
  propertiesOf,
  requiredOf,
  typeOfValue,
  type JsonObject,
  type JsonType,
  type Schema,
} from "../../json-schema/schema-facts.js";
import { provablyDisjoint } from "./disjoint.js";
import type { Gap } from "./gap-wording.js";
import {
  flattenAllOf,
  mergeShallow,
  numberCandidates,
  patternSamples,
  sampleOfType,
  sampleValue,
  stringCandidates,
  unionBranches,
} from "./sample.js";
import type { ValueChecker } from "./value-check.js";

/**
 * Why a source schema is not a subset of a target schema. Direction-aware rules map these to rule
 * ids.
 */
export type IncompatKind =
  | "type"
  | "enum"
  | "const"
  | "pattern"
  | "pattern-unproven"
  | "format"
  | "bound"
  | "required"
  | "property-not-accepted"
  | "undeclared"
  | "closed"
  | "branch"
  | "unsupported";

/** One way a value valid under the source schema can be rejected by the target schema. */
export interface Incompat {
  kind: IncompatKind;
  /** JSON pointer of the schema node inside the compared root, e.g. `/properties/decision`. */
  path: string;
  /** The property concerned, for `required`, `property-not-accepted`, `undeclared` and `closed`. */
  property?: string;
  /** What is incompatible, as data; the reporting direction words it (see `gap-wording.ts`). */
  gap: Gap;
  /** The whole root value (e.g. the full tool call) that should show the incompatibility. */
  witness?: unknown;
  /**
   * True once Ajv confirmed: the witness is valid under the source root and invalid under the
   * target root.
   */
  verified: boolean;
  sourceNode: Schema;
  targetNode: Schema;
  /** The witness before wrapping into the root value (the value at `path`). */
  local?: unknown;
}

/**
 * True when an object schema leaves undeclared properties open and says nothing about them
 * (`additionalProperties` absent, `true` or `{}`). Under open-object semantics the properties such
 * an object does not declare are not part of its contract: nothing is promised about them.
 */
export const isOpen = (additional: Schema): boolean => acceptsAnything(additional);

interface Ctx {
  path: string;
  wrap: (local: unknown) => unknown;
  out: Incompat[];
  checker: ValueChecker;
  depth: number;
}

// Keywords whose inclusion this checker does not reason about: a target that differs in any of them
// is only accepted when the source carries the identical keyword (conservative), else a sampled
// witness is sought.
const opaqueKeywords = [
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "patternProperties",
  "$dynamicRef",
  "minProperties",
  "maxProperties",
  "additionalItems",
  "dependencies",
] as const;

const child = (ctx: Ctx, segments: (string | number)[], wrap: (v: unknown) => unknown): Ctx => ({
  ...ctx,
  path: ctx.path + segments.map((s) => `/${escapePointerSegment(s)}`).join(""),
  wrap,
  depth: ctx.depth + 1,
});

const report = (
  ctx: Ctx,
  kind: IncompatKind,
  gap: Gap,
  source: Schema,
  target: Schema,
  local?: { value: unknown },
  property?: string,
): void => {
  const value = local ? localWitness(ctx, source, target, local.value) : undefined;
  ctx.out.push({
    kind,
    path: ctx.path,
    gap,
    sourceNode: source,
    targetNode: target,
    verified: false,
    ...(property !== undefined ? { property } : {}),
    ...(local ? { witness: ctx.wrap(value), local: value } : {}),
  });
};

/**
 * The proposed local witness if the local schemas agree it shows the gap, else the first sampled
 * candidate of the source that does (a bound, an enum member, a type's edge value); else the
 * proposal.
 */
function localWitness(ctx: Ctx, source: Schema, target: Schema, proposed: unknown): unknown {
  const shows = (v: unknown) =>
    ctx.checker.accepts(source, v) === true && ctx.checker.accepts(target, v) === false;
  if (shows(proposed) || typeof source === "boolean" || acceptsAnything(target)) return proposed;
  const flat = flattenAllOf(source);
  const pool = [
    sampleValue(flat),
    ...(unionBranches(flat) ?? [flat]).flatMap((b) => [
      sampleValue(b),
      ...candidatesOf(b, declaredTypes(b)),
    ]),
  ];
  return pool.find(shows) ?? proposed;
}

/**
 * Every way a value valid under `source` may be invalid under `target` ("source ⊄ target"), with a
 * witness for each, then proven with Ajv against the two roots. Inputs are compared old→new
 * (every old call must stay valid), outputs new→old (every new result must satisfy old clients).
 * Conservative: where inclusion cannot be shown, an incompatibility is reported.
 */
export function findIncompatibilities(
  source: Schema,
  target: Schema,
  checker: ValueChecker,
): Incompat[] {
  const out: Incompat[] = [];
  subset(source, target, { path: "", wrap: (v) => v, out, checker, depth: 0 });
  for (const inc of out) {
    if (inc.witness === undefined) continue;
    // An undeclared property is no schema rejection: the witness relies on a property the target
    // does not declare (structural, by construction), so only the source's acceptance is proven.
    inc.verified =
      checker.accepts(source, inc.witness) === true &&
      (inc.kind === "undeclared" || checker.accepts(target, inc.witness) === false);
  }
  return out;
}

function subset(sourceIn: Schema, targetIn: Schema, ctx: Ctx): void {
  if (acceptsAnything(targetIn) || sourceIn === false || ctx.depth > 64) return;
  const source = flattenAllOf(sourceIn === true ? {} : sourceIn);
  if (targetIn === false) {
    report(ctx, "type", { gap: "nothing" }, sourceIn, targetIn, { value: sampleValue(source) });
    return;
  }
  let target = targetIn as JsonObject;
  if (jsonEqual(source, target)) return;
  if (Array.isArray(target.allOf)) {
    const { allOf, ...rest } = target;
    for (const member of allOf as Schema[]) subset(source, member, ctx);
    target = rest;
    if (acceptsAnything(target)) return;
  }
  const sourceBranches = unionBranches(source);
  if (sourceBranches) {
    const key = Array.isArray(source.oneOf) ? "oneOf" : "anyOf";
    for (const [i, b] of sourceBranches.entries())
      subset(b, target, child(ctx, [key, i], ctx.wrap));
    return;
  }
  const key = Array.isArray(target.oneOf)
    ? "oneOf"
    : Array.isArray(target.anyOf)
      ? "anyOf"
      : undefined;
  const types = declaredTypes(source);
  if (key && types.size > 1 && Array.isArray(source.type)) {
    // `type: [a, b]` is the union of its types: each part may fit a different branch (a type list
    // rewritten as `anyOf: [{type: a}, {type: b}]` is the same schema).
    for (const t of types)
      if (!(t === "integer" && types.has("number"))) subset({ ...source, type: t }, target, ctx);
    return;
  }
  if (key) {
    // target = siblings ∧ (b1 ∨ b2 …): the source must fit the siblings and one branch, each
    // checked as written.
    const { [key]: branches, ...rest } = target;
    if (!acceptsAnything(rest)) subset(source, rest, ctx);
    const usable = (branches as Schema[]).filter((b) => b !== false);
    subsetOfUnion(
      source,
      target,
      usable,
      usable.map((b) => mergeShallow(rest, isObject(b) ? flattenAllOf(b) : {})),
      ctx,
    );
    return;
  }
  compareLeaf(source, target, ctx);
}

const declaredBySiblings = (inc: Incompat, target: JsonObject, at: string): boolean =>
  inc.kind === "undeclared" &&
  inc.property !== undefined &&
  inc.path === `${at}/properties/${escapePointerSegment(inc.property)}` &&
  inc.property in propertiesOf(target);

/**
 * A non-union source must fit one branch of the target union; report the closest branch's gaps.
 * `outline` holds each branch merged with the union's siblings (a superset), used only to prove
 * that the other branches of a `oneOf` cannot also match.
 */
function subsetOfUnion(
  source: JsonObject,
  target: JsonObject,
  branches: Schema[],
  outline: JsonObject[],
  ctx: Ctx,
): void {
  let best: Incompat[] | undefined;
  const tried: unknown[] = [];
  for (const [i, branch] of branches.entries()) {
    const trial: Incompat[] = [];
    subset(source, branch, { ...ctx, out: trial });
    // A pattern change without a counterexample, or a property the branch does not declare (its
    // open object still accepts the value), does not stop the value fitting the branch: they are
    // passed on for the direction to judge (an input removed, an output added, a warning).
    const hard = trial.filter(
      (inc) => inc.kind !== "pattern-unproven" && inc.kind !== "undeclared",
    );
    if (hard.length === 0) {
      // A property the branch leaves undeclared but the union's siblings declare is still declared
      // (the siblings were compared on their own, before the branches).
      ctx.out.push(...trial.filter((inc) => !declaredBySiblings(inc, target, ctx.path)));
      // `oneOf` also rejects a value that matches a second branch: the others must be provably
      // disjoint.
      const overlap = Array.isArray(target.oneOf)
        ? outline.findIndex((other, j) => j !== i && !provablyDisjoint(source, other, ctx.checker))
        : -1;
      if (overlap >= 0)
        ctx.out.push({
          kind: "branch",
          path: ctx.path,
          gap: { gap: "oneof-overlap", branches: [i, overlap] },
          sourceNode: source,
          targetNode: target,
          verified: false,
          witness: ctx.wrap(sampleValue(source)),
        });
      return;
    }
    // The closest branch has the fewest gaps; between equals, one that admits the value's type.
    const score = (gaps: Incompat[]) =>
      new Set(gaps.map((g) => g.path)).size +
      (gaps.some((g) => g.kind === "type" && g.path === ctx.path) ? 0.5 : 0);
    if (!best || score(hard) < score(best)) best = hard;
    // Each branch's own witnesses are values of the source the branch rejects: one of them may be
    // rejected by every branch.
    for (const inc of hard) if (inc.path === ctx.path && "local" in inc) tried.push(inc.local);
  }
  // Prefer a value the whole union rejects; else keep the closest branch's witness for Ajv to
  // judge.
  const shows = (v: unknown) =>
    ctx.checker.accepts(source, v) === true && ctx.checker.accepts(target, v) === false;
  const local = [
    sampleValue(source),
    ...candidatesOf(source, declaredTypes(source)),
    ...tried,
    ...(declaredTypes(source).has("object") ? objectVariants(source, ctx.depth) : []),
  ].find(shows);
  const hit = best?.find((i) => i.witness !== undefined);
  const witness =
    local !== undefined ? ctx.wrap(local) : hit ? hit.witness : ctx.wrap(sampleValue(source));
  ctx.out.push({
    kind: "branch",
    path: ctx.path,
    gap: { gap: "no-branch", ...(best?.[0] ? { closest: best[0].gap } : {}) },
    sourceNode: source,
    targetNode: target,
    verified: false,
    witness,
  });
}

function compareLeaf(source: JsonObject, target: JsonObject, ctx: Ctx): void {
  for (const k of opaqueKeywords) {
    if (
      target[k] === undefined ||
      jsonEqual(target[k], source[k]) ||
      impliedBound(k, source, target)
    )
      continue;
    const candidates = [
      sampleValue(source),
      ...(declaredTypes(source).has("object") ? objectVariants(source, ctx.depth) : []),
    ];
    const hit = candidates.find(
      (c) => ctx.checker.accepts(source, c) === true && ctx.checker.accepts(target, c) === false,
    );
    report(
      ctx,
      "unsupported",
      { gap: "opaque", keyword: k },
      source,
      target,
      hit === undefined ? undefined : { value: hit },
    );
  }
  const sourceValues = enumerated(source);
  const st = declaredTypes(source);
  const tt = declaredTypes(target);
  if (sourceValues) {
    for (const v of sourceValues) {
      if (ctx.checker.accepts(target, v) !== false) continue;
      const kind =
        "const" in target && "const" in source
          ? "const"
          : enumerated(target)
            ? "enum"
            : !admitsType(tt, typeOfValue(v))
              ? "type"
              : keywordKind(target, v, ctx);
      report(ctx, kind, { gap: "value", value: v }, source, target, { value: v });
    }
    return;
  }
  for (const t of st) {
    if (admitsType(tt, t)) continue;
    if (t === "integer" && st.has("number") && tt.has("number")) continue;
    report(ctx, "type", { gap: "type", type: t }, source, target, {
      value: t === "number" ? fractionOf(source, ctx) : sampleOfType(source, t, ctx.depth),
    });
  }
  const targetValues = enumerated(target);
  if (targetValues) {
    const finite = st.size <= 2 && [...st].every((t) => t === "boolean" || t === "null");
    const universe = finite
      ? [...(st.has("boolean") ? [true, false] : []), ...(st.has("null") ? [null] : [])]
      : [];
    const missing = finite
      ? universe.find((v) => !targetValues.some((x) => jsonEqual(x, v)))
      : candidatesOf(source, st).find((v) => !targetValues.some((x) => jsonEqual(x, v)));
    if (finite && missing === undefined) return;
    const kind = "const" in target ? "const" : "enum";
    report(
      ctx,
      kind,
      { gap: "pinned", values: targetValues },
      source,
      target,
      missing === undefined ? undefined : { value: missing },
    );
    return;
  }
  if (st.has("string") && admitsType(tt, "string")) compareString(source, target, ctx);
  if ((st.has("number") || st.has("integer")) && admitsType(tt, "integer"))
    compareNumber(source, target, !(st.has("number") && tt.has("number")), ctx);
  if (st.has("array") && tt.has("array")) compareArray(source, target, ctx);
  if (st.has("object") && tt.has("object")) compareObject(source, target, ctx);
}

/**
 * True when the source's own count bound implies the target's (`minProperties: 3` implies
 * `minProperties: 2`; `maxContains` the same for an identical `contains`): nothing the source
 * accepts is refused by that keyword of the target.
 */
function impliedBound(k: string, source: JsonObject, target: JsonObject): boolean {
  const s = source[k],
    t = target[k];
  if (typeof s !== "number" || typeof t !== "number") return false;
  if ((k === "minContains" || k === "maxContains") && !jsonEqual(source.contains, target.contains))
    return false;
  if (k === "minProperties" || k === "minContains") return s >= t;
  if (k === "maxProperties" || k === "maxContains") return s <= t;
  return false;
}

/** Which keyword of a leaf target rejects a value (for enumerated sources). */
function keywordKind(target: JsonObject, v: unknown, ctx: Ctx): IncompatKind {
  for (const [k, kind] of [
    ["pattern", "pattern"],
    ["format", "format"],
  ] as const)
    if (target[k] !== undefined && ctx.checker.accepts({ [k]: target[k] }, v) === false)
      return kind;
  return "bound";
}

/**
 * Object values that exercise what keywords the checker does not model (`dependentSchemas`,
 * `if`/`then`, `not`, …) react to: the required-only sample, every declared property filled in,
 * each optional property alone, and an undeclared extra property.
 */
function objectVariants(source: JsonObject, depth: number): unknown[] {
  const base = sampleOfType(source, "object", depth) as JsonObject;
  const props = propertiesOf(source);
  const optional = Object.keys(props)
    .filter((k) => !(k in base) && props[k] !== false)
    .sort();
  const filled = (name: string) => sampleValue(props[name], depth + 1);
  return [
    Object.fromEntries([...Object.entries(base), ...optional.map((k) => [k, filled(k)])]),
    ...optional.map((k) => ({ ...base, [k]: filled(k) })),
    { ...base, extraProperty: 1 },
    { ...base, extraProperty: "a" },
  ];
}

/** A non-integer number the source admits (a type narrowed from number to integer). */
function fractionOf(source: JsonObject, ctx: Ctx): number {
  const numeric = numericPart(source);
  return (
    [...numberCandidates(source, false).map((n) => n + 0.5), 0.5, -0.5].find(
      (n) => !Number.isInteger(n) && ctx.checker.accepts(numeric, n) === true,
    ) ?? 0.5
  );
}

function candidatesOf(source: JsonObject, types: Set<JsonType>): unknown[] {
  const out: unknown[] = [];
  if (types.has("string")) out.push(...stringCandidates(source));
  if (types.has("integer") || types.has("number"))
    out.push(...numberCandidates(source, !types.has("number")));
  if (types.has("boolean")) out.push(true, false);
  if (types.has("null")) out.push(null);
  for (const t of ["object", "array"] as const) if (types.has(t)) out.push(sampleOfType(source, t));
  return out;
}

const stringPart = (s: JsonObject): JsonObject => {
  const out: JsonObject = { type: "string" };
  for (const k of ["pattern", "format", "minLength", "maxLength"])
    if (s[k] !== undefined) out[k] = s[k];
  return out;
};

function compareString(source: JsonObject, target: JsonObject, ctx: Ctx): void {
  const s = stringPart(source);
  const extra = [
    ...(typeof target.maxLength === "number" ? ["a".repeat(target.maxLength + 1)] : []),
    ...(typeof target.minLength === "number" && target.minLength > 0
      ? ["a".repeat(target.minLength - 1)]
      : []),
    ...(typeof source.pattern === "string" ? patternSamples(source.pattern, 60) : []),
  ];
  const pool = [...new Set([...stringCandidates(source, 40), ...extra])].filter(
    (c) => ctx.checker.accepts(s, c) === true,
  );
  const checks: [string, IncompatKind, boolean][] = [
    ["pattern", "pattern", target.pattern !== undefined && target.pattern !== source.pattern],
    ["format", "format", target.format !== undefined && target.format !== source.format],
    [
      "minLength",
      "bound",
      typeof target.minLength === "number" &&
        target.minLength > (typeof source.minLength === "number" ? source.minLength : 0),
    ],
    [
      "maxLength",
      "bound",
      typeof target.maxLength === "number" &&
        target.maxLength < (typeof source.maxLength === "number" ? source.maxLength : Infinity),
    ],
  ];
  for (const [k, kind, differs] of checks) {
    if (!differs) continue;
    const single = { type: "string", [k]: target[k] };
    const hit = pool.find((c) => ctx.checker.accepts(single, c) === false);
    if (hit !== undefined)
      report(
        ctx,
        kind,
        { gap: "string", keyword: k, from: source[k], to: target[k], value: hit },
        source,
        target,
        { value: hit },
      );
    else if (kind === "pattern")
      report(
        ctx,
        "pattern-unproven",
        { gap: "pattern-unproven", from: source.pattern, to: target.pattern },
        source,
        target,
      );
    else if (kind === "format")
      report(
        ctx,
        "format",
        { gap: "format", from: source.format, to: target.format },
        source,
        target,
      );
    else
      report(
        ctx,
        kind,
        { gap: "length", keyword: k as "minLength" | "maxLength", to: target[k] as number },
        source,
        target,
      );
  }
}

/** Lowest admitted value as [value, exclusive], or undefined when unbounded. */
const lower = (s: JsonObject): [number, boolean] | undefined => {
  const m = typeof s.minimum === "number" ? s.minimum : undefined;
  const x = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  if (m === undefined && x === undefined) return undefined;
  if (x === undefined || (m !== undefined && m > x)) return [m!, false];
  return [x, true];
};
const upper = (s: JsonObject): [number, boolean] | undefined => {
  const m = typeof s.maximum === "number" ? s.maximum : undefined;
  const x = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  if (m === undefined && x === undefined) return undefined;
  if (x === undefined || (m !== undefined && m < x)) return [m!, false];
  return [x, true];
};

function compareNumber(source: JsonObject, target: JsonObject, integer: boolean, ctx: Ctx): void {
  const step = integer ? 1 : 0.5;
  const sl = lower(source),
    tl = lower(target),
    su = upper(source),
    tu = upper(target);
  if (tl && (!sl || sl[0] < tl[0] || (sl[0] === tl[0] && !sl[1] && tl[1]))) {
    const value = sl ? (sl[1] ? sl[0] + step : sl[0]) : tl[1] ? tl[0] : tl[0] - step;
    report(ctx, "bound", { gap: "lower", bound: tl[0], exclusive: tl[1] }, source, target, {
      value: integer ? Math.ceil(value) : value,
    });
  }
  if (tu && (!su || su[0] > tu[0] || (su[0] === tu[0] && !su[1] && tu[1]))) {
    const value = su ? (su[1] ? su[0] - step : su[0]) : tu[1] ? tu[0] : tu[0] + step;
    report(ctx, "bound", { gap: "upper", bound: tu[0], exclusive: tu[1] }, source, target, {
      value: integer ? Math.floor(value) : value,
    });
  }
  const tm = typeof target.multipleOf === "number" ? target.multipleOf : undefined;
  const sm = typeof source.multipleOf === "number" ? source.multipleOf : undefined;
  if (
    tm !== undefined &&
    !(sm !== undefined && Number.isInteger(sm / tm)) &&
    !(integer && Number.isInteger(1 / tm))
  ) {
    const pool = [...numberCandidates(source, integer), ...(sm ? [sm, sm * 3] : [1, 3, 7])];
    const hit = pool.find(
      (n) =>
        ctx.checker.accepts({ type: "number", multipleOf: tm }, n) === false &&
        ctx.checker.accepts(numericPart(source), n) === true,
    );
    report(
      ctx,
      "bound",
      { gap: "multiple-of", by: tm },
      source,
      target,
      hit === undefined ? undefined : { value: hit },
    );
  }
}

const numericPart = (s: JsonObject): JsonObject => {
  const out: JsonObject = { type: "number" };
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"])
    if (s[k] !== undefined) out[k] = s[k];
  return out;
};

function compareArray(source: JsonObject, target: JsonObject, ctx: Ctx): void {
  // Draft-07 tuple `items` (an array): only identical tuples are accepted as compatible.
  if (Array.isArray(target.items) && !jsonEqual(target.items, source.items))
    report(ctx, "unsupported", { gap: "tuple" }, source, target, { value: sampleValue(source) });
  const sItems: Schema =
    isObject(source.items) || typeof source.items === "boolean" ? (source.items as Schema) : true;
  const tItems: Schema =
    isObject(target.items) || typeof target.items === "boolean" ? (target.items as Schema) : true;
  const sMin = typeof source.minItems === "number" ? source.minItems : 0;
  const sMax = typeof source.maxItems === "number" ? source.maxItems : Infinity;
  // 2020-12 tuples: position i is `prefixItems[i]` where given, else `items`.
  const sPrefix = Array.isArray(source.prefixItems) ? (source.prefixItems as Schema[]) : [];
  const tPrefix = Array.isArray(target.prefixItems) ? (target.prefixItems as Schema[]) : [];
  const sourceAt = (i: number) => (i < sPrefix.length ? sPrefix[i] : sItems);
  const sampleAt = (i: number) => sampleValue(sourceAt(i), ctx.depth + 1);
  const fill = (n: number, from = 0) => Array.from({ length: n }, (_, k) => sampleAt(from + k));
  if (typeof target.minItems === "number" && target.minItems > sMin)
    report(ctx, "bound", { gap: "min-items", count: target.minItems }, source, target, {
      value: fill(sMin),
    });
  if (typeof target.maxItems === "number" && target.maxItems < sMax)
    report(ctx, "bound", { gap: "max-items", count: target.maxItems }, source, target, {
      value: fill(target.maxItems + 1),
    });
  if (target.uniqueItems === true && source.uniqueItems !== true) {
    const one = sampleValue(sItems, ctx.depth + 1);
    report(ctx, "bound", { gap: "unique-items" }, source, target, {
      value: [one, one, ...fill(Math.max(0, sMin - 2))],
    });
  }
  if (sMax === 0) return; // the old side admits only [], so what an item may be is moot
  // An item at position i, after samples of the positions before it, padded to the minimum.
  const at = (i: number) => (v: unknown) =>
    ctx.wrap([...fill(i), v, ...fill(Math.max(0, sMin - i - 1), i + 1)]);
  const tuple = Math.min(Math.max(sPrefix.length, tPrefix.length), sMax);
  for (let i = 0; i < tuple; i++)
    subset(
      sourceAt(i),
      i < tPrefix.length ? tPrefix[i] : tItems,
      child(ctx, i < tPrefix.length ? ["prefixItems", i] : ["items"], at(i)),
    );
  if (sMax <= tuple) return;
  subset(sItems, tItems, child(ctx, ["items"], at(tuple)));
}

function compareObject(source: JsonObject, target: JsonObject, ctx: Ctx): void {
  const sp = propertiesOf(source),
    tp = propertiesOf(target);
  const sr = requiredOf(source),
    tr = requiredOf(target);
  const sAdd = additionalOf(source),
    tAdd = additionalOf(target);
  const base = sampleOfType(source, "object", ctx.depth) as JsonObject;
  // A property the source forbids (an exclusive `oneOf` branch's `not: {required: [p]}`) carries no
  // value the source accepts, so there is nothing of it to keep accepting.
  const forbidden = forbiddenOf(source);
  for (const name of [...tr].sort()) {
    if (sr.has(name)) continue;
    const { [name]: _omit, ...without } = base;
    report(
      ctx,
      "required",
      { gap: "required", property: name },
      source,
      target,
      { value: without },
      name,
    );
  }
  for (const name of Object.keys(sp).sort()) {
    if (sp[name] === false || forbidden.has(name)) continue;
    const to = name in tp ? tp[name] : tAdd;
    const at = (v: unknown) => ctx.wrap({ ...base, [name]: v });
    if (!(name in tp) && isOpen(tAdd)) {
      // Declared by the source only, and the open target promises nothing about it: callers that
      // send it are ignored (inputs), clients that read it no longer get it (outputs).
      report(
        child(ctx, ["properties", name], at),
        "undeclared",
        { gap: "undeclared", property: name },
        sp[name],
        true,
        { value: sampleValue(sp[name], ctx.depth + 1) },
        name,
      );
      continue;
    }
    if (to === false) {
      report(
        child(ctx, ["properties", name], at),
        "property-not-accepted",
        { gap: "property", property: name },
        sp[name],
        false,
        { value: sampleValue(sp[name], ctx.depth + 1) },
        name,
      );
      continue;
    }
    subset(sp[name], to, child(ctx, ["properties", name], at));
  }
  // A target without patternProperties constrains the names they match only through its
  // additionalProperties: an open one promises nothing about them.
  if (
    isObject(source.patternProperties) &&
    !jsonEqual(source.patternProperties, target.patternProperties) &&
    !(target.patternProperties === undefined && isOpen(tAdd))
  )
    report(ctx, "unsupported", { gap: "pattern-properties" }, source, target, { value: base });
  if (sAdd === false) return;
  for (const name of Object.keys(tp).sort()) {
    // An open source says nothing about the properties it does not declare (they are outside its
    // contract), so a property only the target declares is the other direction's `undeclared`.
    if (name in sp || isOpen(sAdd)) continue;
    subset(
      sAdd,
      tp[name],
      child(ctx, ["properties", name], (v) => ctx.wrap({ ...base, [name]: v })),
    );
  }
  let extra = "extraProperty";
  while (extra in tp || extra in sp) extra += "_";
  const atExtra = (v: unknown) => ctx.wrap({ ...base, [extra]: v });
  if (tAdd === false)
    report(
      child(ctx, ["additionalProperties"], atExtra),
      "closed",
      { gap: "closed" },
      sAdd,
      false,
      { value: sampleValue(sAdd, ctx.depth + 1, "string") },
      extra,
    );
  else subset(sAdd, tAdd, child(ctx, ["additionalProperties"], atExtra));
}
