import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { MessageSpec } from "../../diagnostics/message-template.js";
import { type Report, type Rule, reporter } from "../../diagnostics/rule.js";
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

/** A rule of the generator's gate: a rule of the shared table plus its check. */
export interface GeneratorRule {
  rule: Rule;
  check(ctx: RuleContext, emit: (diagnostic: Diagnostic) => void): void;
}

/** Attach a check to a generator rule (declared with `defineRule`, family `generator`). */
export function generatorRule<M extends MessageSpec>(
  rule: Rule<M>,
  check: (ctx: RuleContext, report: Report<M>) => void,
): GeneratorRule {
  return { rule, check: (ctx, emit) => check(ctx, reporter(rule, emit)) };
}

/** Run rules and collect their diagnostics. */
export function runRules(rules: readonly GeneratorRule[], ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const rule of rules) rule.check(ctx, (d) => out.push(d));
  return out;
}
