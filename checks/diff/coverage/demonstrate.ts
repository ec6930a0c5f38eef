import type { Ajv2020 } from "ajv/dist/2020.js";
import { createAjv } from "../../../json-schema/ajv.js";
import type { JsonObject } from "../../../json-schema/schema-facts.js";
import type { Bump } from "../../../diagnostics/rule.js";
import { docFromText } from "../baselines.js";
import { type DiffFinding, type DiffResult, diffContracts } from "../contract-diff.js";
import { diffChecks } from "../rules/index.js";
import { buildCase, type MapEntry } from "./coverage-map.js";
import type { Listing } from "./descriptor-edits.js";
import { type CoverageStatus, declaredStatus } from "./judgement.js";

/** The bump each diff rule requires, by id. */
export const ruleBumps: ReadonlyMap<string, Bump> = new Map(
  diffChecks.flatMap((c) => c.rules.map((r) => [r.id, r.bump] as const)),
);

/** What the diff said about one recorded pair. */
export interface Verdict {
  breaking: boolean;
  bump: Bump;
  rules: string[];
  fingerprints: string[];
}

/** The diff's verdict on two listings (or any two documents), with the result itself. */
export function diffListings(
  before: unknown,
  after: unknown,
  now = new Date("2026-12-01T00:00:00Z"),
): { verdict: Verdict; result: DiffResult } {
  const oldDoc = docFromText(JSON.stringify(before), "old.json", []);
  const newDoc = docFromText(JSON.stringify(after), "new.json", []);
  if (!oldDoc || !newDoc) throw new Error("a generated case is not a tools/list document");
  const result = diffContracts([oldDoc], newDoc, { waivers: [], now, versionCheck: false });
  return { verdict: verdictOf(result), result };
}

/** The recorded form of a diff result: verdict, bump, rule ids and fingerprints, sorted. */
export function verdictOf(result: DiffResult): Verdict {
  return {
    breaking: result.breaking,
    bump: result.requiredBump,
    rules: [...new Set(result.findings.map((f) => f.ruleId))].sort(),
    fingerprints: result.findings.map((f) => f.fingerprint).sort(),
  };
}

/** One edit, demonstrated: the status it earned, the verdict, and what failed if anything. */
export interface Demonstrated {
  entry: MapEntry;
  status: CoverageStatus | "unaccounted";
  verdict: Verdict;
  problem?: string;
}

// An independent validator: the project's Ajv factory, not the diff's own checker. Foreign
// keywords (`x-mcp-header`, dynamic references) are read as annotations.
let ajv: Ajv2020 | undefined;
const validates = (schema: unknown, value: unknown): boolean | undefined => {
  ajv ??= createAjv({ strict: false, allowUnionTypes: true, logger: false });
  try {
    return ajv.validate(schema as JsonObject, value) as boolean;
  } catch {
    // A schema Ajv cannot compile (an unresolvable dynamic reference): it proves nothing.
    return undefined;
  }
};

const schemaOf = (l: Listing, tool: string, key: "inputSchema" | "outputSchema") =>
  l.tools.find((t) => t.name === tool)?.[key] ?? (key === "inputSchema" ? undefined : true);

/**
 * Check a finding's witness with the independent Ajv: a schema witness (a call or result and
 * nothing else) is valid on its accepting side and invalid on its rejecting side (or relies on a
 * property that side does not declare); a fact witness (an old call and the changed fact) is an
 * old call the old input schema accepts. Returns the problem, or undefined when it holds.
 */
export function witnessProblem(
  f: DiffFinding,
  before: Listing,
  after: Listing,
): string | undefined {
  const w = f.witness;
  if (!w) return "no witness";
  if (!w.verified) return "witness not verified by the diff";
  const side = (s: "old" | "new") => (s === "old" ? before : after);
  const value = w.value as JsonObject;
  const keys = Object.keys(value ?? {})
    .sort()
    .join(",");
  const fact = !(keys === "arguments,name" || keys === "structuredContent");
  if (w.kind !== "call" && w.kind !== "result") return undefined;
  const key = w.kind === "call" ? "inputSchema" : "outputSchema";
  const local = w.kind === "call" ? value.arguments : value.structuredContent;
  const accepting = schemaOf(side(w.acceptedBy), f.tool!, key);
  if (accepting === undefined) return `the ${w.acceptedBy} side has no tool ${f.tool}`;
  const accepted = validates(accepting, local);
  if (accepted === undefined) return `Ajv cannot compile the ${w.acceptedBy} schema`;
  if (!accepted) return `Ajv: the ${w.acceptedBy} schema refuses the witness`;
  if (fact || w.effect === "undeclared") return undefined;
  const rejecting = schemaOf(side(w.rejectedBy), f.tool!, key);
  // A removed tool refuses every call by its absence.
  if (rejecting === undefined) return undefined;
  const rejected = validates(rejecting, local);
  if (rejected === undefined) return `Ajv cannot compile the ${w.rejectedBy} schema`;
  if (rejected) return `Ajv: the ${w.rejectedBy} schema accepts the witness`;
  return undefined;
}

/**
 * Run the real diff on one edit's generated case and check it earns its declared status: the
 * named rule is reported with the bump it requires (and, for a covered edit, a witness the
 * independent Ajv proves); a not-wire-relevant edit is neither breaking nor above PATCH.
 */
export function demonstrate(entry: MapEntry): Demonstrated {
  const { before, after } = buildCase([entry]);
  const { verdict, result } = diffListings(before, after);
  const declared = declaredStatus(entry.judge);
  const fail = (problem: string): Demonstrated => ({
    entry,
    status: "unaccounted",
    verdict,
    problem,
  });
  const j = entry.judge;
  if (j.notWire !== undefined) {
    if (verdict.breaking || (verdict.bump !== "none" && verdict.bump !== "patch"))
      return fail(`judged ${verdict.bump} (${verdict.rules.join(", ")})`);
    return { entry, status: declared, verdict };
  }
  // A wire-relevant edit no rule reports: its case must indeed report nothing.
  if (j.rule === undefined)
    return verdict.rules.length === 0
      ? { entry, status: declared, verdict }
      : fail(`listed as reported by no rule, but ${verdict.rules.join(", ")} reported it`);
  const bump = ruleBumps.get(j.rule);
  if (bump === undefined) return fail(`no diff rule ${j.rule}`);
  const found = result.findings.filter((f) => f.ruleId === j.rule);
  if (found.length === 0)
    return fail(`${j.rule} not reported (found: ${verdict.rules.join(", ") || "nothing"})`);
  if (verdict.bump !== bump) return fail(`bump ${verdict.bump}, ${j.rule} requires ${bump}`);
  const problems = found.map((f) => witnessProblem(f, before, after));
  const proven = problems.some((p) => p === undefined);
  if (j.noWitness === undefined && !proven) return fail(`${j.rule}: ${problems[0]}`);
  // The map must not undersell: a rule that now proves the edit with a witness covers it.
  if (j.noWitness !== undefined && proven)
    return fail(`${j.rule} now gives a proven witness: map the edit as covered`);
  return { entry, status: declared, verdict };
}
