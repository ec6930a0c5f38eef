import assert from "node:assert/strict";
import { knownTagsMetaKey, readKnownTags } from "../../../evolution/definition-tags/known-tags.js";

const tag = `sha256:${"a".repeat(64)}`;

describe("evolution/definition-tags: known tags of a request", () => {
  it("reads the method → tag map of the request _meta", () => {
    const read = readKnownTags({
      [knownTagsMetaKey]: { "tools/list": tag, "server/discover": "opaque-1" },
      progressToken: 3,
    });
    assert.deepEqual(
      [...read.tags],
      [
        ["tools/list", tag],
        ["server/discover", "opaque-1"],
      ],
    );
    assert.deepEqual(read.ignored, []);
  });

  it("treats absent or malformed hints as no hints, never as an error", () => {
    for (const meta of [undefined, null, "x", [], {}, { other: 1 }])
      assert.equal(readKnownTags(meta).tags.size, 0, JSON.stringify(meta));
    for (const map of [null, "tools/list", [tag], 42]) {
      const read = readKnownTags({ [knownTagsMetaKey]: map });
      assert.equal(read.tags.size, 0);
      assert.deepEqual(read.ignored, ["knownTags: not an object"]);
    }
  });

  it("ignores non-string tags, over-long entries and entries beyond the limit", () => {
    const read = readKnownTags({
      [knownTagsMetaKey]: {
        "tools/list": 1,
        "prompts/list": { tag },
        "resources/list": null,
        "skills/list": "x".repeat(10_000),
        ["m".repeat(300)]: tag,
        "server/discover": tag,
      },
    });
    assert.deepEqual([...read.tags.keys()], ["server/discover"]);
    assert.equal(read.ignored.length, 5);
    assert.ok(
      read.ignored.every((line) => line.length < 120),
      "the log never echoes huge input",
    );
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`m${i}`, tag]));
    const capped = readKnownTags({ [knownTagsMetaKey]: many }, { maxEntries: 4 });
    assert.equal(capped.tags.size, 4);
    assert.equal(capped.ignored.length, 996);
  });

  it("keeps a __proto__ method as data, polluting nothing", () => {
    const read = readKnownTags(JSON.parse(`{"${knownTagsMetaKey}":{"__proto__":"${tag}"}}`));
    assert.equal(read.tags.get("__proto__"), tag);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
