import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import type { FullContext } from "../../generated/types.gen.js";
import type { LocalizedError } from "../error-table.js";

function contextSummary(context: FullContext): string {
  return `Learning context at stateVersion ${context.stateVersion}: ${context.requiredAction}.`;
}

/** A concise text for text-only hosts (C9): facts from the output, no new content. */
export function summarize(tool: ToolName, output: ToolOutput<ToolName>): string {
  const o = output as unknown as Record<string, unknown>;
  if (typeof o.requiredAction === "string") return contextSummary(output as FullContext);
  if (o.receipt && o.successor) {
    const receipt = o.receipt as { receiptId: string; stateVersion: number };
    return `Saved with receipt ${receipt.receiptId} at stateVersion ${receipt.stateVersion}. Next: ${(o.successor as FullContext).requiredAction}.`;
  }
  return `${tool} completed.`;
}

/** A successful tool result: the output as structuredContent plus a concise text. */
export function successResult(tool: ToolName, output: ToolOutput<ToolName>): CallToolResult {
  return {
    content: [{ type: "text", text: summarize(tool, output) }],
    structuredContent: output as unknown as Record<string, unknown>,
  };
}

/**
 * A failed tool result. No structuredContent: clients validate it against the tool's
 * outputSchema even on errors, and an error envelope is not a full context.
 */
export function errorResult(error: LocalizedError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${error.code}: ${error.message} ${error.recovery}` }] };
}
