import assert from "node:assert/strict";
import {
  decideTag,
  type HeldToolChange,
  staleTagsMeta,
  type TagCall,
} from "../../../evolution/definition-tags/tag-decision.js";
import { staleTagsMetaKey } from "../../../evolution/definition-tags/known-tags.js";

const CURRENT = "tag-current";
const OLD = "tag-1.1.3";
const OLDEST = "tag-1.0.0";

/** A lane serving CURRENT, still holding 1.1.3 (live), 1.0.0 retired (not live). */
function call(over: Partial<TagCall> & { change?: HeldToolChange; held?: string }): TagCall {
  return {
    mode: "on",
    knownTag: OLD,
    currentTag: CURRENT,
    currentDigest: "d-now",
    heldDigest: (tag) =>
      tag === OLD ? { digest: "held" in over ? over.held : "d-old", live: true } : { live: false },
    classify: () => over.change ?? "incompatible",
    serves: () => false,
    ...over,
  };
}

describe("evolution/definition-tags: the server's decision table", () => {
  it("ignores: tags off, no tag sent, or the tag is current", () => {
    assert.equal(decideTag(call({ mode: "off", knownTag: OLDEST })).action, "ignore");
    assert.equal(decideTag(call({ knownTag: undefined })).action, "ignore");
    const current = decideTag(call({ knownTag: CURRENT }));
    assert.equal(current.action, "ignore");
    assert.equal(current.servedDigest, "d-now");
    assert.deepEqual(staleTagsMeta(current), {});
  });

  it("rejects a tag that names no live approved set (unknown, or retired)", () => {
    for (const knownTag of [OLDEST, "made-up"]) {
      const d = decideTag(call({ knownTag }));
      assert.equal(d.action, "reject");
      assert.deepEqual(d.staleTags, ["tools/list"]);
    }
  });

  it("signals when the called tool is unchanged, or changed compatibly, and serves it as current", () => {
    // An unchanged tool is Contract-Diff's `server-only`: signalled.
    assert.equal(decideTag(call({ held: "d-now", change: "server-only" })).action, "signal");
    for (const change of ["server-only", "PATCH", "MINOR"] as const) {
      const d = decideTag(call({ change }));
      assert.equal(d.action, "signal", change);
      assert.equal(d.servedDigest, "d-now");
      assert.deepEqual(staleTagsMeta(d), { [staleTagsMetaKey]: ["tools/list"] });
    }
  });

  it("does not take equal digests for an unchanged tool: the digest leaves out _meta, where a change can break", () => {
    // e.g. _meta.ui.visibility made the tool app-only: same digest, Contract-Diff says incompatible.
    const d = decideTag(call({ held: "d-now", change: "incompatible" }));
    assert.equal(d.action, "reject");
  });

  it("honours an incompatible change only while the held definition is still served", () => {
    const honoured = decideTag(call({ change: "incompatible", serves: (d) => d === "d-old" }));
    assert.equal(honoured.action, "honour");
    assert.equal(honoured.servedDigest, "d-old");
    assert.deepEqual(staleTagsMeta(honoured), { [staleTagsMetaKey]: ["tools/list"] });
    const rejected = decideTag(call({ change: "incompatible" }));
    assert.equal(rejected.action, "reject");
    assert.deepEqual(staleTagsMeta(rejected), {}, "a rejection carries staleTags in error data");
  });

  it("treats a tool the current listing dropped like an incompatible change", () => {
    assert.equal(decideTag(call({ currentDigest: undefined })).action, "reject");
    assert.equal(
      decideTag(call({ currentDigest: undefined, serves: (d) => d === "d-old" })).action,
      "honour",
    );
  });

  it("serves a tool the held set did not list as current, with a signal; no tool at all is rejected", () => {
    assert.equal(decideTag(call({ held: undefined })).action, "signal");
    assert.equal(decideTag(call({ held: undefined, currentDigest: undefined })).action, "reject");
  });
});
