import type { Diagnostic, Location, RuleMeta, Severity } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule-table.js";
import type { SchemaRegistry } from "../../json-schema/registry.js";
import type { SourceFile } from "../../json-schema/source.js";
import type { JsonObject } from "../../json-schema/walk.js";

/** A tool definition file as loaded, before validation. */
export interface ToolSource {
  file: string;
  id: string;
  doc: JsonObject;
}

/** Everything a generator rule may look at. Rules are pure: no I/O, no clock. */
export interface RuleContext {
  registry: SchemaRegistry;
  tools: readonly ToolSource[];
  /**
   * Every JSON Schema document (envelopes, common, contract-line, plugin and tool-definition
   * schemas).
   */
  schemaDocs: readonly SourceFile[];
  /** release/line.json as parsed (may be invalid; the line rule checks it). */
  line: { file: string; json: unknown } | undefined;
}

export type Report = (message: string, location: Location, severity?: Severity) => void;

/** A rule of the generator's gate: metadata in the shared rule table plus a check. */
export interface GeneratorRule {
  meta: RuleMeta;
  check(ctx: RuleContext, report: Report): void;
}

/** Define a generator rule and register its id in the shared table. */
export function createRule(def: RuleMeta & { check: GeneratorRule["check"] }): GeneratorRule {
  const meta = defineRule({ id: def.id, severity: def.severity, summary: def.summary });
  return { meta, check: def.check };
}

/** Run rules and collect their diagnostics. */
export function runRules(rules: readonly GeneratorRule[], ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules)
    rule.check(ctx, (message, location, severity) =>
      out.push(diagnose(rule.meta, message, location, { severity })),
    );
  return out;
}
