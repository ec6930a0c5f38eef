import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  definitionTag,
  definitionTagScheme,
  tagDefinitionSet,
} from "../../../evolution/definition-tags/definition-tag.js";
import { toolDigest } from "../../../evolution/definition-tags/tool-digest.js";

const d = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;
const tools = [
  { name: "a", description: "first", inputSchema: { type: "object" } },
  { name: "b", description: "second", inputSchema: { type: "object" }, _meta: { x: 1 } },
];

describe("evolution/definition-tags: definition-set tags", () => {
  it("hashes the canonical JSON of the sorted digests, the lane, the method and the scheme", () => {
    const text =
      `{"digests":["${d(1)}","${d(2)}"],"lane":"claude","method":"tools/list",` +
      `"scheme":"${definitionTagScheme}"}`;
    const expected = `sha256:${createHash("sha256").update(text).digest("hex")}`;
    assert.equal(definitionTag("claude", [d(2), d(1)]), expected);
  });

  it("depends on the definitions and the lane only: not on order, calls or time", () => {
    const one = definitionTag("openai", [d(1), d(2), d(3)]);
    assert.equal(definitionTag("openai", [d(3), d(1), d(2)]), one);
    assert.equal(definitionTag("openai", new Set([d(2), d(3), d(1)])), one);
    assert.notEqual(definitionTag("claude", [d(1), d(2), d(3)]), one, "another lane, another tag");
    assert.notEqual(definitionTag("openai", [d(1), d(2)]), one, "a removed tool changes it");
    assert.notEqual(definitionTag("openai", [d(1), d(2), d(3), d(4)]), one, "an added tool too");
    assert.notEqual(definitionTag("openai", [d(1), d(2), d(5)]), one, "a changed tool too");
  });

  it("gives an empty set a tag of its own on each lane", () => {
    assert.match(definitionTag("mcp", []), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(definitionTag("mcp", []), definitionTag("openai", []));
  });

  it("refuses malformed digests, a digest twice and an empty lane", () => {
    assert.throws(() => definitionTag("openai", ["sha256:abc"]), /not a tool digest/);
    assert.throws(() => definitionTag("openai", [d(1).toUpperCase()]), /not a tool digest/);
    assert.throws(() => definitionTag("openai", [7 as unknown as string]), /not a tool digest/);
    assert.throws(() => definitionTag("openai", [d(1), d(1)]), /appears twice/);
    assert.throws(() => definitionTag("", [d(1)]), /lane id/);
  });

  it("tags a listing: digests by name, and the same tag however the list is ordered", () => {
    const set = tagDefinitionSet("openai", tools);
    assert.deepEqual(set.digests, { a: toolDigest(tools[0]), b: toolDigest(tools[1]) });
    assert.equal(set.tag, definitionTag("openai", Object.values(set.digests)));
    assert.equal(tagDefinitionSet("openai", [...tools].reverse()).tag, set.tag);
    assert.equal(
      tagDefinitionSet("openai", [tools[0], { ...tools[1], _meta: { y: 2 } }]).tag,
      set.tag,
      "a _meta change is no definition change",
    );
    assert.throws(
      () => tagDefinitionSet("openai", [tools[0], { ...tools[0], description: "again" }]),
      /listed twice/,
    );
  });
});
