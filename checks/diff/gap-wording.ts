/**
 * What the subset checker found, as data: one way a value valid under the source schema is rejected
 * by the target schema. The checker is direction-blind; the wording is not — the same gap reads
 * "value "fr" is no longer accepted" for old calls against a new input schema, but "new results may
 * carry value "fr", which old clients do not accept" for a new output against old clients.
 */
export type Gap =
  | { gap: "nothing" }
  | { gap: "oneof-overlap"; branches: [number, number] }
  | { gap: "no-branch"; closest?: Gap }
  | { gap: "opaque"; keyword: string }
  | { gap: "value"; value: unknown }
  | { gap: "type"; type: string }
  | { gap: "pinned"; values: unknown[] }
  | { gap: "string"; keyword: string; from: unknown; to: unknown; value: string }
  | { gap: "pattern-unproven"; from?: unknown; to: unknown }
  | { gap: "format"; from?: unknown; to: unknown }
  | { gap: "length"; keyword: "minLength" | "maxLength"; to: number }
  | { gap: "lower"; bound: number; exclusive: boolean }
  | { gap: "upper"; bound: number; exclusive: boolean }
  | { gap: "multiple-of"; by: number }
  | { gap: "tuple" }
  | { gap: "min-items"; count: number }
  | { gap: "max-items"; count: number }
  | { gap: "unique-items" }
  | { gap: "required"; property: string }
  | { gap: "property"; property: string }
  /** The source declares the property; the target is open and does not declare it. */
  | { gap: "undeclared"; property: string }
  | { gap: "pattern-properties" }
  | { gap: "closed" };

/** Who produces the compared values and who checks them: decides how a gap is worded. */
export interface Perspective {
  /** The side whose values must stay valid (the subset checker's source). */
  source: "old" | "new";
  describe(gap: Gap): string;
}

const j = (v: unknown) => JSON.stringify(v ?? null);
const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
const other = (side: "old" | "new") => (side === "old" ? "new" : "old");

/**
 * The gap as something the source values "may do" (`carry value "fr"`, `omit "locale"`), whether
 * the target rejects or requires it, and an optional constraint note. `target` names the checking
 * side.
 */
function action(
  g: Gap,
  target: "old" | "new",
): { verb: string; requires?: boolean; note?: string } {
  switch (g.gap) {
    case "nothing":
      return { verb: "carry any value here", note: `the ${target} schema accepts nothing here` };
    case "oneof-overlap":
      return {
        verb: `match branches ${g.branches[0]} and ${g.branches[1]} of the ${target} oneOf at once`,
        note: "oneOf needs exactly one match",
      };
    case "no-branch":
      return {
        verb: `fit no branch of the ${target} union`,
        ...(g.closest ? { note: `closest branch: ${action(g.closest, target).verb}` } : {}),
      };
    case "opaque":
      return {
        verb: `differ in \`${g.keyword}\``,
        note: "the checker cannot compare this keyword",
      };
    case "value":
      return { verb: `carry value ${j(g.value)}` };
    case "type":
      return { verb: `carry ${article(g.type)}` };
    case "pinned":
      return { verb: `carry a value other than ${j(g.values)}` };
    case "string":
      return { verb: `carry ${j(g.value)}`, note: `${target} ${g.keyword} ${j(g.to)}` };
    case "pattern-unproven":
      return { verb: `carry strings outside the ${target} pattern ${j(g.to)}` };
    case "format":
      return { verb: `carry strings outside the ${target} format ${j(g.to)}` };
    case "length":
      return {
        verb: `carry strings ${g.keyword === "minLength" ? "shorter" : "longer"} than ${g.to}`,
      };
    case "lower":
      return { verb: `carry numbers ${g.exclusive ? "≤" : "<"} ${g.bound}` };
    case "upper":
      return { verb: `carry numbers ${g.exclusive ? "≥" : ">"} ${g.bound}` };
    case "multiple-of":
      return { verb: `carry numbers that are not multiples of ${g.by}` };
    case "tuple":
      return { verb: `carry arrays that do not match the ${target} positional (tuple) items` };
    case "min-items":
      return { verb: `carry arrays with fewer than ${g.count} items` };
    case "max-items":
      return { verb: `carry arrays with more than ${g.count} items` };
    case "unique-items":
      return { verb: "carry arrays with duplicate items" };
    case "required":
      return { verb: `omit ${j(g.property)}`, requires: true };
    case "property":
      return { verb: `carry property ${j(g.property)}` };
    case "undeclared":
      return {
        verb: `carry property ${j(g.property)}`,
        note: `the ${target} schema does not declare it`,
      };
    case "pattern-properties":
      return {
        verb: `carry properties admitted by the ${other(target)} patternProperties`,
        note: "the checker does not compare patternProperties",
      };
    case "closed":
      return { verb: "carry unknown properties" };
  }
}

/**
 * Old values checked by the new schema (input narrowing, envelope narrowing): "… is no longer
 * accepted".
 */
function noLongerAccepted(g: Gap): string {
  switch (g.gap) {
    case "nothing":
      return "the new schema accepts nothing here";
    case "oneof-overlap":
      return (
        `values may match oneOf branches ${g.branches[0]} and ` +
        `${g.branches[1]} at once, which oneOf rejects`
      );
    case "no-branch":
      return (
        `no branch of the new union accepts every value ` +
        `here${g.closest ? ` (closest branch: ${noLongerAccepted(g.closest)})` : ""}`
      );
    case "opaque":
      return (
        `the new schema adds or changes \`${g.keyword}\`, which the checker ` +
        `cannot prove compatible`
      );
    case "value":
      return `value ${j(g.value)} is no longer accepted`;
    case "type":
      return `type ${g.type} is no longer accepted`;
    case "pinned":
      return `the new schema pins the value(s) ${j(g.values)}`;
    case "string":
      return g.from === undefined
        ? `${g.keyword} ${j(g.to)} added, which rejects ${j(g.value)}`
        : `${g.keyword} ${j(g.from)} → ${j(g.to)} rejects ${j(g.value)}`;
    case "pattern-unproven":
      return (
        `pattern changed to ${j(g.to)}; no sampled old value is rejected, ` +
        `but inclusion is not proven`
      );
    case "format":
      return `format ${j(g.from)} → ${j(g.to)}`;
    case "length":
      return `${g.keyword} narrowed to ${j(g.to)}`;
    case "lower":
      return `lower bound raised to ${g.exclusive ? ">" : "≥"} ${g.bound}`;
    case "upper":
      return `upper bound lowered to ${g.exclusive ? "<" : "≤"} ${g.bound}`;
    case "multiple-of":
      return `multipleOf ${g.by} added`;
    case "tuple":
      return "the new schema constrains array items by position (tuple items)";
    case "min-items":
      return `minItems raised to ${g.count}`;
    case "max-items":
      return `maxItems lowered to ${g.count}`;
    case "unique-items":
      return "uniqueItems added";
    case "required":
      return `property ${j(g.property)} became required`;
    case "property":
      return `property ${j(g.property)} is no longer accepted`;
    case "undeclared":
      return `property ${j(g.property)} is no longer declared, so a value sent for it is ignored`;
    case "pattern-properties":
      return (
        "the old schema admits properties by pattern (patternProperties), " +
        "which the checker does not compare"
      );
    case "closed":
      return "unknown properties are no longer accepted";
  }
}

interface Audience {
  /** The values compared, e.g. "new results", and one of them, "new result". */
  values: string;
  value: string;
  /** Who checks them, e.g. "old clients"; with the verbs in the right tense. */
  checker: string;
  accepts: string;
  rejects: string;
  requires: string;
  /** For a property only the source declares: "did not declare", "do not know". */
  lacks: string;
}

/**
 * "<values> may <do X>, which <checker> do not accept / require (<note>)": the wording for values
 * of one side that the other (old) side checks.
 */
function mayBreak(a: Audience): Perspective["describe"] {
  return (g) => {
    if (g.gap === "opaque")
      return (
        `\`${g.keyword}\` differs between the old and the new schema; the ` +
        `checker cannot prove that ${a.checker} ${a.accepts} all ${a.values}`
      );
    if (g.gap === "pattern-unproven")
      return (
        `pattern changed from ${j(g.to)} to ${j(g.from)}; no sampled ` +
        `${a.value} is rejected by ${a.checker}, but inclusion is not proven`
      );
    if (g.gap === "undeclared")
      return `${a.values} may carry property ${j(g.property)}, which ${a.checker} ${a.lacks}`;
    const { verb, requires, note } = action(g, "old");
    return (
      `${a.values} may ${verb}, which ${a.checker} ` +
      `${requires ? a.requires : a.rejects}${note ? ` (${note})` : ""}`
    );
  };
}

/**
 * Old results checked by the new output schema: what new results never do any more (a narrowing).
 */
function noLongerReturned(g: Gap): string {
  if (g.gap === "required") return `new results always carry ${j(g.property)}`;
  if (g.gap === "no-branch")
    return (
      "new results are narrower here: some old results fit no branch of the new union" +
      (g.closest ? ` (closest branch: ${noLongerReturned(g.closest)})` : "")
    );
  if (g.gap === "opaque")
    return (
      `\`${g.keyword}\` differs between the old and the new schema; new ` +
      `results may be narrower than old ones`
    );
  const { verb, note } = action(g, "new");
  return `new results no longer ${verb}${note ? ` (${note})` : ""}`;
}

/** The wording for each direction a diff rule compares in. */
export const perspectives = {
  /** Input schemas, old → new: every call an old client sends must stay valid. */
  oldCalls: { source: "old", describe: noLongerAccepted },
  /** Input schemas, new → old: what new calls may send that the old schema refused (a widening). */
  newCalls: {
    source: "new",
    describe: mayBreak({
      values: "new calls",
      value: "new call",
      checker: "the old schema",
      accepts: "accepted",
      rejects: "did not accept",
      requires: "required",
      lacks: "did not declare",
    }),
  },
  /** Output schemas, new → old: every result the new server returns must satisfy old clients. */
  newResults: {
    source: "new",
    describe: mayBreak({
      values: "new results",
      value: "new result",
      checker: "old clients",
      accepts: "accept",
      rejects: "do not accept",
      requires: "require",
      lacks: "do not know",
    }),
  },
  /**
   * Output schemas, old → new: what old results could carry that new results never do (a
   * narrowing).
   */
  oldResults: { source: "old", describe: noLongerReturned },
  /** Shared envelopes, old → new: values old writers produce must stay valid. */
  oldValues: { source: "old", describe: noLongerAccepted },
  /** Shared envelopes, new → old: values new writers produce must satisfy old readers. */
  newValues: {
    source: "new",
    describe: mayBreak({
      values: "new values",
      value: "new value",
      checker: "old readers",
      accepts: "accept",
      rejects: "do not accept",
      requires: "require",
      lacks: "do not know",
    }),
  },
} as const satisfies Record<string, Perspective>;
