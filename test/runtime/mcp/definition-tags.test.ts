import assert from "node:assert/strict";
import type { Tool } from "@modelcontextprotocol/server";
import type { ApprovedDefinitions } from "../../../evolution/approved-definitions.js";
import {
  definitionTag,
  tagDefinitionSet,
} from "../../../evolution/definition-tags/definition-tag.js";
import { digestMetaKey, toolDigest } from "../../../evolution/definition-tags/tool-digest.js";
import {
  discoverTag,
  endpointTags,
  MAX_KNOWN_TAGS,
  type ToolChangeClassifier,
} from "../../../runtime/mcp/definition-tags.js";

const KNOWN = "io.modelcontextprotocol/knownTags";
const tool = (name: string, description: string): Tool =>
  ({ name, description, inputSchema: { type: "object" }, _meta: { ui: { x: 1 } } }) as Tool;
const current = [tool("read", "now"), tool("write", "same")];
const old = [tool("read", "before"), tool("write", "same"), tool("gone", "held only")];
const holder = { kind: "published", version: "1.0.0", imported: false, snapshotFile: "x" } as const;

/** Release 1.0.0 of contract major 1 holding `old`. */
const approved: ApprovedDefinitions = {
  tools: new Map(
    old.map((d) => [
      d.name,
      [{ tool: d.name, sha256: d.name, contractMajor: 1, descriptor: d, holders: [holder] }],
    ]),
  ),
  holders: [holder],
  retired: [],
  problems: [],
};
const oldTag = tagDefinitionSet("openai", old as never).tag;
const meta = (tag: unknown) => ({ [KNOWN]: { "tools/list": tag } });

describe("runtime/mcp: an endpoint's definition tags and call decisions", () => {
  it("tags the listing on its lane and adds each tool's digest, keeping the rest of _meta", () => {
    const tags = endpointTags(current, new Set(["read", "write"]), "openai", 1, {});
    assert.equal(
      tags.tag,
      definitionTag(
        "openai",
        current.map((t) => toolDigest(t)),
      ),
    );
    for (const t of tags.tools) {
      assert.equal(t._meta?.[digestMetaKey], toolDigest(t));
      assert.deepEqual(t._meta?.ui, { x: 1 });
    }
    assert.notEqual(endpointTags(current, new Set(), "claude", 1, {}).tag, tags.tag);
  });

  it("serves without tags or with the current one, refuses one it never served or another lane's", () => {
    const tags = endpointTags(current, new Set(["read", "write"]), "openai", 1, { approved });
    assert.equal(tags.decide("read", undefined).action, "serve");
    const now = tags.decide("read", meta(tags.tag));
    assert.equal(now.action, "serve");
    assert.equal(now.action === "serve" && now.decision.action, "ignore");
    for (const tag of ["sha256:0", tagDefinitionSet("claude", old as never).tag])
      assert.equal(tags.decide("read", meta(tag)).action, "reject", tag);
  });

  it("decides a live set's tag by Contract-Diff's class, computed once at start and never per call", () => {
    let classified = 0;
    const classify: ToolChangeClassifier = () => {
      classified++;
      return "MINOR";
    };
    const tags = endpointTags(current, new Set(["read", "write"]), "openai", 1, {
      approved,
      classify,
    });
    assert.equal(classified, 1, "one changed tool of one live set");
    const verdict = (name: string) => {
      const v = tags.decide(name, meta(oldTag));
      return v.action === "invalid" ? v.action : v.decision.action;
    };
    assert.equal(verdict("read"), "signal");
    assert.equal(verdict("write"), "signal");
    assert.equal(verdict("gone"), "reject", "held, and served by no name");
    for (let i = 0; i < 100; i++) tags.decide("read", meta(oldTag));
    assert.equal(classified, 1);
  });

  it("honours an incompatible change while the name is served; without a classifier every change counts as incompatible", () => {
    const tags = endpointTags(current, new Set(["read", "write", "gone"]), "openai", 1, {
      approved,
    });
    const read = tags.decide("read", meta(oldTag));
    assert.equal(read.action === "serve" && read.decision.action, "honour");
    const gone = tags.decide("gone", meta(oldTag));
    assert.equal(gone.action === "serve" && gone.decision.action, "honour");
    const otherMajor = endpointTags(current, new Set(["read"]), "openai", 2, { approved });
    assert.equal(otherMajor.decide("read", meta(oldTag)).action, "reject", "another major's set");
  });

  it("refuses a knownTags map naming more methods than the cap, ignores a tag that is no string", () => {
    const tags = endpointTags(current, new Set(["read"]), "openai", 1, { approved });
    const many = (n: number) => ({
      [KNOWN]: Object.fromEntries(Array.from({ length: n }, (_, i) => [`m/${i}`, "x"])),
    });
    assert.equal(tags.decide("read", many(MAX_KNOWN_TAGS)).action, "serve");
    const refused = tags.decide("read", many(10_000));
    assert.equal(refused.action, "invalid");
    assert.match(refused.action === "invalid" ? refused.message : "", /more than 16 methods/);
    assert.equal(tags.decide("read", meta(42)).action, "serve");
  });

  it("tags a server/discover result by lane and content, never by its _meta", () => {
    const result = { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } };
    const tag = discoverTag("openai", result);
    assert.match(tag, /^sha256:[0-9a-f]{64}$/);
    assert.equal(discoverTag("openai", { ...result, _meta: { any: 1 } }), tag);
    assert.notEqual(discoverTag("claude", result), tag);
    assert.notEqual(discoverTag("openai", { ...result, instructions: "x" }), tag);
  });
});
