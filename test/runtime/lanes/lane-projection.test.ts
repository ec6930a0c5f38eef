import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/server";
import { projectPage, projectTools } from "../../../runtime/lanes/lane-projection.js";

const tool = {
  name: "t",
  inputSchema: { type: "object" },
  _meta: { ui: { resourceUri: "ui://x" }, "openai/outputTemplate": "ui://x" },
} as Tool;

describe("what a lane shows of tools and pages", () => {
  it("keeps ChatGPT's openai/* keys on the openai lane and drops them elsewhere", () => {
    assert.equal(projectTools([tool], { openaiMeta: true })[0], tool);
    assert.deepEqual(projectTools([tool], { openaiMeta: false })[0]._meta, {
      ui: { resourceUri: "ui://x" },
    });
    const page = {
      contents: [{ uri: "ui://x", text: "<p>", _meta: { "openai/widgetCSP": {}, ui: {} } }],
    };
    assert.deepEqual(projectPage(page, { openaiMeta: false }).contents[0]._meta, { ui: {} });
  });
});
