import assert from "node:assert/strict";
import type { LaneId, LaneSettings } from "../../../runtime/lanes/lane.js";
import { mcpMounts } from "../../../runtime/lanes/mcp-mounts.js";

const lane = (id: LaneId, mcpPath: string, atConnect: boolean): LaneSettings => ({
  id,
  mcpPath,
  resource: `http://127.0.0.1:4000${mcpPath}`,
  resourceMetadataUrl: `http://127.0.0.1:4000/.well-known/oauth-protected-resource${mcpPath}`,
  atConnect,
  openaiMeta: !atConnect,
});

describe("the server's MCP endpoints, from one table", () => {
  it("mounts /mcp, every major at its adapter path on the primary lane, and every other lane", () => {
    const mounts = mcpMounts(
      [
        { path: "/internal/openai/v1/mcp", contractMajor: 1 },
        { path: "/internal/openai/v2/mcp", contractMajor: 2 },
      ],
      [lane("openai", "/mcp", false), lane("claude", "/claude/mcp", true)],
    );
    assert.deepEqual(
      mounts.map((m) => [m.path, m.contractMajor, m.lane.id, m.authentication]),
      [
        ["/mcp", 1, "openai", "tool-call-challenge"],
        ["/internal/openai/v1/mcp", 1, "openai", "tool-call-challenge"],
        ["/internal/openai/v2/mcp", 2, "openai", "tool-call-challenge"],
        ["/claude/mcp", 1, "claude", "at-connect"],
      ],
    );
  });
});
