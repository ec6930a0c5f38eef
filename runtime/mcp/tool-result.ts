import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import type { FullContext } from "../../generated/types.gen.js";
import type { LocalizedError } from "../error-table.js";

function contextSummary(context: FullContext): string {
  return `Learning context at stateVersion ${context.stateVersion}: ${context.requiredAction}.`;
}

const saved = (receipt: unknown) => {
  const r = receipt as { receiptId: string; stateVersion: number };
  return `Saved with receipt ${r.receiptId} at stateVersion ${r.stateVersion}.`;
};

/**
 * A concise text for text-only hosts (C9): counts and receipts from the output, never its prompts,
 * answers or widget data.
 */
export function summarize(tool: string, output: ToolOutput<ToolName>): string {
  const o = output as unknown as Record<string, unknown>;
  if (typeof o.requiredAction === "string") return contextSummary(output as FullContext);
  if (o.receipt && o.successor)
    return `${saved(o.receipt)} Next: ${(o.successor as FullContext).requiredAction}.`;
  if (o.receipt && o.continuation) {
    const tally = o.recalled as { passed: number; failed: number };
    return (
      `${saved(o.receipt)} Recalled ${tally.passed}, not yet ` +
      `${tally.failed}. Next: ` +
      `${(o.continuation as { action: string }).action}.`
    );
  }
  if (o.receipt && typeof o.remaining === "number")
    return `${saved(o.receipt)} ${o.remaining} practice cards left.`;
  if (o.batch)
    return (
      `Verified Recall batch with ` +
      `${(o.batch as { items: unknown[] }).items.length} prompts is open.`
    );
  if (Array.isArray(o.answers))
    return `${o.answers.length} reference answers are ready for grading.`;
  if (o.rendered === true) return `The image of goal ${String(o.goalId)} is shown.`;
  if (typeof o.cardCount === "number") return `Memory practice is open with ${o.cardCount} cards.`;
  return `${tool} completed.`;
}

/**
 * A successful tool result: the output as structuredContent plus a concise text, and the
 * widget-private data of a UI-bound tool as `_meta`.
 */
export function successResult(
  tool: string,
  output: ToolOutput<ToolName>,
  widgetMeta?: Record<string, unknown>,
): CallToolResult {
  return {
    content: [{ type: "text", text: summarize(tool, output) }],
    structuredContent: output as unknown as Record<string, unknown>,
    ...(widgetMeta && { _meta: widgetMeta }),
  };
}

/**
 * A failed tool result. No structuredContent: clients validate it against the tool's
 * outputSchema even on errors, and an error envelope is not a full context.
 */
export function errorResult(error: LocalizedError, meta?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message} ${error.recovery}` }],
    ...(meta && { _meta: meta }),
  };
}
