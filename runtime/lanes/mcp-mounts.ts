import type { LaneAuthentication, LaneSettings } from "./lane.js";

/** A contract major the server serves, at its internal adapter path. */
export interface ServedMajor {
  /** Its internal adapter path (schemas/plugin.json `internalAdapterPath`). */
  path: string;
  contractMajor: number;
}

/** One MCP endpoint of the server: where, which contract major, for which lane, how it signs in. */
export interface McpMount {
  path: string;
  contractMajor: number;
  lane: LaneSettings;
  authentication: LaneAuthentication;
}

/**
 * Every MCP endpoint of the server, in one table: the public `/mcp` (the primary major on the
 * primary lane), each served contract major at its internal adapter path (the primary lane: its
 * sessions and its resource), and every other provider lane at its own path, serving the primary
 * major. `majors` lists the primary major first; `lanes` the primary lane first
 * (`AuthSettings.lanes`).
 */
export function mcpMounts(
  majors: readonly ServedMajor[],
  lanes: readonly LaneSettings[],
): McpMount[] {
  const [primary] = majors;
  const [primaryLane, ...others] = lanes;
  const mount = (path: string, contractMajor: number, lane: LaneSettings): McpMount => ({
    path,
    contractMajor,
    lane,
    authentication: lane.atConnect ? "at-connect" : "tool-call-challenge",
  });
  return [
    mount(primaryLane.mcpPath, primary.contractMajor, primaryLane),
    ...majors.map((m) => mount(m.path, m.contractMajor, primaryLane)),
    ...others.map((lane) => mount(lane.mcpPath, primary.contractMajor, lane)),
  ];
}
