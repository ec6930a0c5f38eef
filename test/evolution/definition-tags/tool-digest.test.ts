import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  digestMetaKey,
  toolDigest,
  withToolDigest,
} from "../../../evolution/definition-tags/tool-digest.js";

const sha = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

const tool = {
  name: "complete_goal",
  title: "Complete goal",
  description: "Marks the active goal as achieved. €",
  inputSchema: {
    type: "object",
    properties: {
      decision: { enum: ["achieved", "not_yet"] },
      n: { type: "integer", maximum: 1e21 },
    },
    required: ["decision"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, idempotentHint: true },
  _meta: { ui: { resourceUri: "ui://x/a" }, "openai/outputTemplate": "ui://x/a" },
};

describe("evolution/definition-tags: tool digests", () => {
  it("is sha256: + hex SHA-256 of the tool's RFC 8785 form without its top-level _meta", () => {
    const expected = sha(
      '{"annotations":{"idempotentHint":true,"readOnlyHint":false},' +
        '"description":"Marks the active goal as achieved. €",' +
        '"inputSchema":{"additionalProperties":false,"properties":{"decision":{"enum":["achieved","not_yet"]},' +
        '"n":{"maximum":1e+21,"type":"integer"}},"required":["decision"],"type":"object"},' +
        '"name":"complete_goal","title":"Complete goal"}',
    );
    assert.equal(toolDigest(tool), expected);
    assert.match(toolDigest(tool), /^sha256:[0-9a-f]{64}$/);
  });

  it("is stable under member reordering at every depth", () => {
    const reordered = {
      _meta: tool._meta,
      annotations: { idempotentHint: true, readOnlyHint: false },
      inputSchema: {
        additionalProperties: false,
        required: ["decision"],
        properties: {
          n: { maximum: 1e21, type: "integer" },
          decision: { enum: ["achieved", "not_yet"] },
        },
        type: "object",
      },
      name: "complete_goal",
      description: tool.description,
      title: tool.title,
    };
    assert.equal(toolDigest(reordered), toolDigest(tool));
  });

  it("ignores any change confined to the top-level _meta, and nothing else", () => {
    const { _meta: _drop, ...bare } = tool;
    assert.equal(toolDigest(bare), toolDigest(tool));
    assert.equal(toolDigest({ ...tool, _meta: { other: [1, 2] } }), toolDigest(tool));
    assert.equal(
      toolDigest({ ...tool, _meta: { [digestMetaKey]: "sha256:stale" } }),
      toolDigest(tool),
    );
    assert.notEqual(toolDigest({ ...tool, description: `${tool.description} ` }), toolDigest(tool));
    assert.notEqual(
      toolDigest({ ...tool, annotations: { ...tool.annotations, readOnlyHint: true } }),
      toolDigest(tool),
    );
    // Only the top-level _meta is left out: a _meta inside the schema is part of the definition.
    const nested = { ...tool, inputSchema: { ...tool.inputSchema, _meta: { a: 1 } } };
    assert.notEqual(toolDigest(nested), toolDigest(tool));
    // Array order is meaning: never sorted.
    const swapped = { ...tool, inputSchema: { ...tool.inputSchema, required: ["decision", "n"] } };
    const swapped2 = { ...tool, inputSchema: { ...tool.inputSchema, required: ["n", "decision"] } };
    assert.notEqual(toolDigest(swapped), toolDigest(swapped2));
  });

  it("refuses what is not a tool definition", () => {
    for (const bad of [null, [], "tool", 1, { title: "no name" }, { name: 7 }])
      assert.throws(() => toolDigest(bad), TypeError, JSON.stringify(bad));
    assert.throws(() => toolDigest({ name: "x", bad: Number.NaN }), /not a JSON number/);
    assert.throws(() => toolDigest({ name: "x", description: "\ud800" }), /lone surrogate/);
  });

  it("lists a tool with its digest in _meta, keeping the other _meta members and the input", () => {
    const listed = withToolDigest(tool);
    assert.equal((listed._meta as Record<string, unknown>)[digestMetaKey], toolDigest(tool));
    assert.equal((listed._meta as Record<string, unknown>)["openai/outputTemplate"], "ui://x/a");
    assert.equal(digestMetaKey in tool._meta, false, "the input is not changed");
    assert.equal(toolDigest(listed), toolDigest(tool), "the digest does not cover itself");
    const bare = withToolDigest({ name: "y", _meta: "not an object" });
    assert.deepEqual(Object.keys(bare._meta as unknown as object), [digestMetaKey]);
  });
});
