import assert from "node:assert/strict";
import { resolveLanes } from "../../../runtime/lanes/lane-settings.js";

const invalid = (message: string) => new Error(message);
const loopbackNames = new Set(["127.0.0.1", "localhost", "[::1]"]);
const input = (lanePublicUrls?: Record<string, string>, loopback = true) => ({
  origin: loopback ? "http://127.0.0.1:4000" : "https://mcp-openai.skillpilot.com",
  loopback,
  isLoopbackHost: (hostname: string) => loopbackNames.has(hostname),
  ...(lanePublicUrls && { lanePublicUrls }),
});

describe("provider lanes as this server serves them (schemas/lanes.json)", () => {
  it("puts the openai lane first, each lane on the public origin plus its path", () => {
    const lanes = resolveLanes(input(), invalid);
    assert.deepEqual(
      lanes.map((l) => [l.id, l.resource, l.atConnect, l.openaiMeta]),
      [
        ["openai", "http://127.0.0.1:4000/mcp", false, true],
        ["claude", "http://127.0.0.1:4000/claude/mcp", true, false],
        ["mcp", "http://127.0.0.1:4000/standard/mcp", true, false],
        ["gemini", "http://127.0.0.1:4000/gemini/mcp", true, false],
      ],
    );
    assert.equal(
      lanes[1].resourceMetadataUrl,
      "http://127.0.0.1:4000/.well-known/oauth-protected-resource/claude/mcp",
    );
  });

  it("publishes a lane at its configured public URL (without a trailing slash) on its allowlist", () => {
    const lanes = resolveLanes(
      input({ claude: "https://mcp-claude.skillpilot.com/mcp/" }, false),
      invalid,
    );
    const claude = lanes.find((l) => l.id === "claude");
    assert.equal(claude?.resource, "https://mcp-claude.skillpilot.com/mcp");
    assert.equal(
      claude?.resourceMetadataUrl,
      "https://mcp-claude.skillpilot.com/.well-known/oauth-protected-resource/mcp",
    );
    assert.equal(claude?.mcpPath, "/claude/mcp", "served locally on its own path");
  });

  it("refuses an unknown lane, the openai lane, a foreign origin, a reserved path and a shared resource", () => {
    for (const [urls, problem] of [
      [{ copilot: "https://x.example/mcp" }, /names lane "copilot", which schemas\/lanes.json/],
      [{ openai: "https://mcp-openai.skillpilot.com/mcp" }, /set publicUrl instead/],
      [{ claude: "https://evil.example/mcp" }, /outside its allowlist/],
      [{ claude: "https://mcp-claude.skillpilot.com/start" }, /uses the path \/start/],
      [{ claude: "https://u:p@mcp-claude.skillpilot.com/mcp" }, /carries credentials/],
      [{ claude: "not a url" }, /lanePublicUrls.claude is not a URL/],
      [{ claude: "https://mcp-openai.skillpilot.com/mcp" }, /lanes openai and claude are both/],
    ] as const)
      assert.throws(() => resolveLanes(input(urls, false), invalid), problem);
  });

  it("accepts a loopback public URL on a loopback server only", () => {
    const local = { claude: "http://localhost:5000/claude/mcp" };
    assert.equal(resolveLanes(input(local), invalid)[1].resource, local.claude);
    assert.throws(() => resolveLanes(input(local, false), invalid), /outside its allowlist/);
  });
});
