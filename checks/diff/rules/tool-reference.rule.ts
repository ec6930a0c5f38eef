import { type DiffRule, defineRule } from "../../../diagnostics/rule.js";
import { toolReferenceKeyword } from "../../../json-schema/keywords.js";
import type { DiffContext } from "../diff-rule.js";
import type { Incompat } from "../schema-subset.js";
import type { gapMessage } from "./schema-compat.js";

/**
 * A place marked `x-skillpilot-tool-reference` names tools of the contract, and the server names
 * there only tools the caller's own definitions hold (docs/evolution.md). Its enum grows with
 * every tool the contract adds, which no holder of an older definition is ever sent: a MINOR
 * addition, not a widened output.
 */
export const toolReferenceAdded = defineRule({
  id: "TOOL_REFERENCE_ADDED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary:
    "A tool-name field (x-skillpilot-tool-reference) may name a tool the contract adds; holders " +
    "of older definitions are never sent it.",
  message: {
    at: "{subject}: the tool-name field at {path} may name a tool the contract adds; a caller is sent it only when its own definitions hold it",
    root: "{subject}: may name a tool the contract adds; a caller is sent it only when its own definitions hold it",
  },
});

/** The enum shrinks with a tool the contract removes (judged by the removal itself). */
export const toolReferenceRemoved = defineRule({
  id: "TOOL_REFERENCE_REMOVED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary:
    "A tool-name field (x-skillpilot-tool-reference) no longer names a tool the contract " +
    "removed; the removal itself is judged as a tool change.",
  message: {
    at: "{subject}: the tool-name field at {path} no longer names a tool the contract removed",
    root: "{subject}: no longer names a tool the contract removed",
  },
});

const marked = (node: unknown) =>
  typeof node === "object" &&
  node !== null &&
  (node as Record<string, unknown>)[toolReferenceKeyword] === true;

/**
 * The tool-reference rule for one enum gap, or undefined when the gap is an ordinary one: the
 * value is a tool name that `gained` declares and `lost` does not, in a place the new contract
 * marks as a tool reference (the promise is the new server's: it names only tools the caller
 * holds, whatever an older contract said about the place).
 */
export function toolReferenceRule(
  ctx: DiffContext,
  inc: Incompat,
  direction: "added" | "removed",
): DiffRule<typeof gapMessage> | undefined {
  if (inc.kind !== "enum" || inc.gap.gap !== "value") return undefined;
  const newNode = direction === "added" ? inc.sourceNode : inc.targetNode;
  if (!marked(newNode)) return undefined;
  const value = inc.gap.value;
  if (typeof value !== "string") return undefined;
  const [gained, lost] = direction === "added" ? [ctx.new, ctx.old] : [ctx.old, ctx.new];
  if (!gained.tools.has(value) || lost.tools.has(value)) return undefined;
  // Reported with the schema comparison's parameters; these messages use a subset of them.
  const rule = direction === "added" ? toolReferenceAdded : toolReferenceRemoved;
  return rule as unknown as DiffRule<typeof gapMessage>;
}
