import type { Diagnostic, Location, Severity } from "./diagnostic.js";
import {
  type MessageSpec,
  type ParamsOf,
  placeholders,
  renderTemplate,
} from "./message-template.js";

/** Which part of the toolchain reports a rule; `docs/rules.md` has one section per family. */
export const ruleFamilies = [
  "cli",
  "generator",
  "lint",
  "diff",
  "skill-lint",
  "trace",
  "release",
] as const;
export type RuleFamily = (typeof ruleFamilies)[number];

/** The SemVer bump a contract change requires, smallest first. */
export const bumps = ["none", "patch", "minor", "major"] as const;
export type Bump = (typeof bumps)[number];

/**
 * How a change reads to a client that pins tool definitions (a proxy that re-approves a changed
 * definition): `descriptive` text it may accept as is, or `behavioural` — what a tool accepts,
 * returns or may do, or text that steers the model.
 */
export const pinnings = ["descriptive", "behavioural"] as const;
export type Pinning = (typeof pinnings)[number];

/** The generated rule reference; every rule's docs link defaults to its anchor there. */
export const rulesDocPath = "docs/rules.md";

/**
 * Where the repository's documentation is published. Docs links are repository-relative
 * (`docs/rules.md#…`); outputs that need an absolute URI (SARIF `helpUri`) resolve them against
 * this base.
 */
export const docsBaseUrl = "https://skillpilot.com/toolchain/";

interface SpecBase<M extends MessageSpec> {
  /** SCREAMING_SNAKE_CASE; once published it never changes meaning. */
  id: string;
  family: RuleFamily;
  /** Default severity; a report site may override it for one finding. */
  severity: Severity;
  /** One line for docs and SARIF, citing requirement IDs. */
  summary: string;
  /** The message template(s); see `message-template.ts`. */
  message: M;
  /** Documentation link; defaults to the rule's anchor in `docs/rules.md`. */
  docs?: string;
}

/** Declaration of a rule without family-specific extras. */
export interface RuleSpec<M extends MessageSpec> extends SpecBase<M> {
  bump?: undefined;
  waivable?: undefined;
  pinning?: undefined;
}

/** Declaration of a Contract-Diff change rule: the bump it requires and whether it is waivable. */
export interface DiffRuleSpec<M extends MessageSpec> extends SpecBase<M> {
  family: "diff";
  bump: Bump;
  /** Whether a waiver may accept a finding of this rule (default true). */
  waivable?: boolean;
  /**
   * How its findings read to a client that pins definitions (default `behavioural`); `by-text`:
   * judged per finding by the text it adds (a new URL, instruction-like text, a tool reference).
   */
  pinning?: Pinning | "by-text";
}

/** A registered rule: its metadata, message template(s) and docs link. */
export interface Rule<M extends MessageSpec = MessageSpec> {
  readonly id: string;
  readonly family: RuleFamily;
  readonly severity: Severity;
  readonly summary: string;
  readonly message: M;
  readonly docs: string;
  readonly bump?: Bump;
  readonly waivable?: boolean;
  readonly pinning?: Pinning | "by-text";
}

/** A registered Contract-Diff change rule. */
export interface DiffRule<M extends MessageSpec = MessageSpec> extends Rule<M> {
  readonly family: "diff";
  readonly bump: Bump;
  readonly waivable: boolean;
  readonly pinning: Pinning | "by-text";
}

/**
 * The single rule table. Generator, gate lint, Contract-Diff, skill lint and the release steps
 * register their rules here, so every renderer (SARIF's rule list) and `docs/rules.md` see one
 * catalogue.
 */
const table = new Map<string, Rule>();

const idPattern = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Anchor of a rule id in `docs/rules.md`. */
export function ruleAnchor(id: string): string {
  return id.toLowerCase();
}

/** The templates of a message, as `[variant, template]` pairs (`variant` is `""` for one). */
export function messageTemplates(message: MessageSpec): [string, string][] {
  return typeof message === "string" ? [["", message]] : Object.entries(message);
}

function checkSpec(spec: RuleSpec<MessageSpec> | DiffRuleSpec<MessageSpec>): void {
  const fail = (why: string) => {
    throw new Error(`rule ${spec.id}: ${why}`);
  };
  if (!idPattern.test(spec.id)) fail("the id must be SCREAMING_SNAKE_CASE");
  if (!spec.summary || /[\r\n]/.test(spec.summary)) fail("the summary must be one line");
  const templates = messageTemplates(spec.message);
  if (templates.length === 0) fail("a rule needs at least one message");
  for (const [, template] of templates)
    if (placeholders(template).includes("variant")) fail("{variant} names the message variant");
}

/**
 * Register a rule in the one table and return it. Registering the same definition again returns
 * the registered rule; a different definition under a registered id throws (ids never change
 * meaning). The returned rule's message type decides the parameters `diagnose` takes.
 */
export function defineRule<const M extends MessageSpec>(spec: DiffRuleSpec<M>): DiffRule<M>;
export function defineRule<const M extends MessageSpec>(spec: RuleSpec<M>): Rule<M>;
export function defineRule(spec: RuleSpec<MessageSpec> | DiffRuleSpec<MessageSpec>): Rule {
  checkSpec(spec);
  const rule: Rule = Object.freeze({
    id: spec.id,
    family: spec.family,
    severity: spec.severity,
    summary: spec.summary,
    message: typeof spec.message === "string" ? spec.message : Object.freeze({ ...spec.message }),
    docs: spec.docs ?? `${rulesDocPath}#${ruleAnchor(spec.id)}`,
    ...(spec.bump !== undefined
      ? {
          bump: spec.bump,
          waivable: spec.waivable ?? true,
          pinning: spec.pinning ?? "behavioural",
        }
      : {}),
  });
  const existing = table.get(rule.id);
  if (existing) {
    if (JSON.stringify(existing) === JSON.stringify(rule)) return existing;
    throw new Error(`rule ${rule.id} defined twice with different meaning`);
  }
  table.set(rule.id, rule);
  return rule;
}

/** Look a registered rule up by id. */
export function ruleById(id: string): Rule | undefined {
  return table.get(id);
}

/** Every registered rule, by family (in `ruleFamilies` order), then id. */
export function registeredRules(): Rule[] {
  const order = (r: Rule) => ruleFamilies.indexOf(r.family);
  return [...table.values()].sort((a, b) => order(a) - order(b) || (a.id < b.id ? -1 : 1));
}

/**
 * Render a rule's message from its template; for variant messages, `params.variant` picks the
 * template.
 */
export function ruleMessage<M extends MessageSpec>(rule: Rule<M>, params: ParamsOf<M>): string {
  const values = params as Readonly<Record<string, unknown>>;
  if (typeof rule.message === "string") return renderTemplate(rule.message, values);
  const variant = String(values.variant);
  const template = (rule.message as Readonly<Record<string, string>>)[variant];
  if (template === undefined) throw new Error(`rule ${rule.id} has no message ${variant}`);
  return renderTemplate(template, values);
}

/**
 * The one way to report a finding: a diagnostic of `rule` at `location`, its message rendered from
 * the rule's template with `params`, with the rule's default severity unless `extra` overrides it.
 */
export function diagnose<M extends MessageSpec>(
  rule: Rule<M>,
  params: ParamsOf<M>,
  location: Location,
  extra: { severity?: Severity; data?: Record<string, unknown> } = {},
): Diagnostic {
  return {
    ruleId: rule.id,
    severity: extra.severity ?? rule.severity,
    message: ruleMessage(rule, params),
    location,
    ...(extra.data ? { data: extra.data } : {}),
  };
}

/** A report function bound to one rule: message parameters, location, optional severity. */
export type Report<M extends MessageSpec> = (
  params: ParamsOf<M>,
  location: Location,
  severity?: Severity,
) => void;

/** Bind `rule` to a diagnostic sink: what a rule's check function reports through. */
export function reporter<M extends MessageSpec>(
  rule: Rule<M>,
  emit: (diagnostic: Diagnostic) => void,
): Report<M> {
  return (params, location, severity) => emit(diagnose(rule, params, location, { severity }));
}
