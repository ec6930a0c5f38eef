import { isObject } from "../../json-schema/walk.js";

/**
 * The facts of the minimal turn contract (C2, C10, C11, L8) that a trace judge or a live monitor
 * needs, derived from a contract's tool descriptors and envelopes, never from a list of tool
 * names: which tools read the full context, which write, where a result carries a successor
 * context or a continuation, which inputs carry server-issued values, the session field and the
 * idempotency key. The envelopes are recognized by their schema titles, the contract's names for
 * them.
 */

/** How a tool is used. */
export type ToolKind = "read" | "write" | "app-only";

/** A tool as a snapshot, a tools/list or the generated descriptors give it. */
export interface ToolShape {
  name: string;
  kind?: string;
  annotations?: Record<string, unknown>;
  _meta?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
}

/** What the turn rules know of one tool. */
export interface ToolTurnFacts {
  kind: ToolKind;
  /** Its output is the full context. */
  fullContext: boolean;
  /** Output properties holding the complete successor context. */
  successorAt: readonly string[];
  /** Output properties holding a continuation. */
  continuationAt: readonly string[];
  /** Input properties whose values the server issues (ids, capabilities, option payloads, URLs). */
  issuedInputs: readonly string[];
}

/** The turn facts of one contract. */
export interface TurnFacts {
  tools: ReadonlyMap<string, ToolTurnFacts>;
  /** Read tools whose output is the full context. */
  contextReads: ReadonlySet<string>;
  /** The input every model-visible tool requires: the session handle. */
  sessionField?: string;
  /** The write envelope's idempotency key (a fresh UUID per new operation). */
  idempotencyKey?: string;
  /** Tools a continuation's server-filled tool call names: chained, not a new mutation. */
  chainedTools: ReadonlySet<string>;
  /** The stable error codes of the error envelope (empty when the contract has none). */
  errorCodes: ReadonlySet<string>;
  /**
   * Writes that record the learner's judgement of what a read revealed, with those reads: the
   * write requires a server-issued value (a capability) that the read's output requires under the
   * same name, and the read is not the full context (Verified Recall: the results spend the
   * grading capability the reference answers come with). The learner sees what was revealed and
   * consents to saving it first.
   */
  revealedBy: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The contract's names (schema titles) of the envelopes the turn contract speaks about. */
export const envelopeTitles = {
  fullContext: "FullContext",
  continuation: "Continuation",
  writeRequest: "WriteRequest",
  error: "CoachErrorEnvelope",
} as const;

const props = (schema: unknown): Record<string, unknown> =>
  isObject(schema) && isObject(schema.properties) ? schema.properties : {};
const required = (schema: unknown): string[] =>
  isObject(schema) && Array.isArray(schema.required) ? schema.required.map(String) : [];
const titled = (schema: unknown, title: string) => isObject(schema) && schema.title === title;

/** The kind a tool declares, else what its visibility and annotations say (as the gate lint). */
function kindOf(tool: ToolShape): ToolKind {
  if (tool.kind === "read" || tool.kind === "write" || tool.kind === "app-only") return tool.kind;
  const ui = isObject(tool._meta) && isObject(tool._meta.ui) ? tool._meta.ui : {};
  if (JSON.stringify(ui.visibility) === JSON.stringify(["app"])) return "app-only";
  return tool.annotations?.readOnlyHint === true ? "read" : "write";
}

/** Tool names a continuation schema's `toolCall.name` can take (const or enum). */
function toolCallNames(schema: unknown, out: Set<string>): void {
  if (Array.isArray(schema)) for (const s of schema) toolCallNames(s, out);
  if (!isObject(schema)) return;
  const call = props(schema).toolCall;
  const name = props(call).name;
  if (isObject(name)) {
    if (typeof name.const === "string") out.add(name.const);
    if (Array.isArray(name.enum)) for (const n of name.enum) out.add(String(n));
  }
  for (const key of ["oneOf", "anyOf", "allOf"]) toolCallNames(schema[key], out);
}

/** Whether an input property carries a value the server issued (not a number, enum or uuid). */
function isIssued(schema: unknown, key: string | undefined, name: string): boolean {
  if (!isObject(schema) || name === key) return false;
  if ("enum" in schema || "const" in schema || schema.type !== "string") return false;
  if (schema.format === "uuid") return false;
  return typeof schema.pattern === "string" || typeof schema.format === "string";
}

/**
 * Derive the turn facts of a contract from its tools (snapshot tools, a tools/list or generated
 * descriptors) and, when the document has them, its envelopes (keyed by title).
 */
export function deriveTurnFacts(
  tools: readonly ToolShape[],
  envelopes: Readonly<Record<string, unknown>> = {},
): TurnFacts {
  const visible = tools.filter((t) => kindOf(t) !== "app-only");
  const sessionField = visible.length
    ? required(visible[0].inputSchema).find((n) =>
        visible.every((t) => required(t.inputSchema).includes(n)),
      )
    : undefined;
  const writeRequest = envelopes[envelopeTitles.writeRequest];
  const uuidIn = (schema: unknown) =>
    Object.entries(props(schema)).find(([, s]) => isObject(s) && s.format === "uuid")?.[0];
  const idempotencyKey =
    uuidIn(writeRequest) ??
    visible.map((t) => (kindOf(t) === "write" ? uuidIn(t.inputSchema) : undefined)).find(Boolean);
  const facts = new Map<string, ToolTurnFacts>();
  const chainedTools = new Set<string>();
  for (const tool of tools) {
    const out = props(tool.outputSchema);
    const at = (title: string) =>
      Object.entries(out)
        .filter(([, s]) => titled(s, title))
        .map(([k]) => k);
    const continuationAt = at(envelopeTitles.continuation);
    for (const k of continuationAt) toolCallNames(out[k], chainedTools);
    facts.set(tool.name, {
      kind: kindOf(tool),
      fullContext: titled(tool.outputSchema, envelopeTitles.fullContext),
      successorAt: at(envelopeTitles.fullContext),
      continuationAt,
      issuedInputs: Object.entries(props(tool.inputSchema))
        .filter(([name, s]) => isIssued(s, idempotencyKey, name))
        .map(([name]) => name),
    });
  }
  const error = envelopes[envelopeTitles.error];
  const code = props(error).code;
  const errorCodes = new Set(
    isObject(code) && Array.isArray(code.enum) ? code.enum.map(String) : [],
  );
  return {
    tools: facts,
    contextReads: new Set(
      [...facts].filter(([, f]) => f.kind === "read" && f.fullContext).map(([n]) => n),
    ),
    ...(sessionField && { sessionField }),
    ...(idempotencyKey && { idempotencyKey }),
    chainedTools,
    errorCodes,
    revealedBy: revealedBy(tools, facts, sessionField),
  };
}

/** Which reads (not the full context) issue a value a write requires: see `revealedBy`. */
function revealedBy(
  tools: readonly ToolShape[],
  facts: ReadonlyMap<string, ToolTurnFacts>,
  sessionField: string | undefined,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const reveals = tools.filter((t) => {
    const f = facts.get(t.name);
    return f?.kind === "read" && !f.fullContext;
  });
  for (const write of tools) {
    if (facts.get(write.name)?.kind !== "write") continue;
    const needs = required(write.inputSchema).filter((n) => n !== sessionField);
    for (const read of reveals) {
      const issued = props(read.outputSchema);
      const given = required(read.outputSchema);
      if (needs.some((n) => given.includes(n) && isIssued(issued[n], undefined, n)))
        out.set(write.name, (out.get(write.name) ?? new Set<string>()).add(read.name));
    }
  }
  return out;
}
