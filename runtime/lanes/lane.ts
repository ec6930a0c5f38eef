import { type ProviderLane, providerLanes } from "../../generated/identity.gen.js";

/** A provider lane's id, as schemas/lanes.json declares it (e.g. `openai`, `claude`, `mcp`). */
export type LaneId = ProviderLane["id"];

/**
 * How a lane's endpoint treats a request without a token: `tool-call-challenge` serves the public
 * methods and answers a tool call with a tool result carrying the challenge (ChatGPT starts
 * account linking from it); `at-connect` answers every such request with HTTP 401 and the
 * challenge (the form standard MCP clients start OAuth from).
 */
export type LaneAuthentication = ProviderLane["authentication"];

/** The lane the plugin's public MCP URL serves, and the internal adapters of every major. */
export const primaryLaneId: LaneId = "openai";

/** One provider lane as this server serves it (resolved from the configuration once, at start). */
export interface LaneSettings {
  id: LaneId;
  mcpPath: string;
  /** Its OAuth resource, the audience its tokens must name (no token serves two lanes). */
  resource: string;
  /** Its RFC 9728 protected resource metadata URL, on the resource's origin. */
  resourceMetadataUrl: string;
  /** Every request without a token gets 401 with the challenge (else only protected methods). */
  atConnect: boolean;
  /** Tools and pages keep ChatGPT's `openai/*` widget keys. */
  openaiMeta: boolean;
}

/** Every declared lane, the primary one first (the others in their declared order). */
export function declaredLanes(): readonly ProviderLane[] {
  return [...providerLanes].sort((a, b) =>
    a.id === primaryLaneId ? -1 : b.id === primaryLaneId ? 1 : 0,
  );
}

/** Whether schemas/lanes.json declares a lane of this id. */
export function isDeclaredLane(id: string): boolean {
  return providerLanes.some((l) => l.id === id);
}

/** The declared lane ids, for messages ("lanes: openai, claude, mcp"). */
export function declaredLaneIds(): string {
  return providerLanes.map((l) => l.id).join(", ");
}
