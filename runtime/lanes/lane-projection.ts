import type { ReadResourceResult, Tool } from "@modelcontextprotocol/server";

/** What a provider lane changes in what an endpoint serves (schemas/lanes.json `widgetMeta`). */
export interface LaneProjection {
  /** The lane's id (schemas/lanes.json): its sessions are the only ones its endpoint serves. */
  id?: string;
  /** Keep ChatGPT's `openai/*` widget keys beside the MCP Apps ones. */
  openaiMeta: boolean;
}

/** `_meta` without ChatGPT's `openai/*` keys (MCP Apps hosts read `ui` only). */
function withoutOpenAiKeys(meta: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith("openai/")));
}

/** The tool listing as a lane shows it: built once per endpoint, never per request. */
export function projectTools(tools: readonly Tool[], lane: LaneProjection): Tool[] {
  if (lane.openaiMeta) return tools as Tool[];
  return tools.map((tool) =>
    tool._meta
      ? { ...tool, _meta: withoutOpenAiKeys(tool._meta as Record<string, unknown>) }
      : tool,
  );
}

/** A UI page read as a lane serves it (the page bytes are the same on every lane). */
export function projectPage(result: ReadResourceResult, lane: LaneProjection): ReadResourceResult {
  if (lane.openaiMeta) return result;
  return {
    ...result,
    contents: result.contents.map((c) =>
      c._meta ? { ...c, _meta: withoutOpenAiKeys(c._meta as Record<string, unknown>) } : c,
    ),
  };
}
