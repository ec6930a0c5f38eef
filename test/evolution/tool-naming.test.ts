import assert from "node:assert/strict";
import { nameToolsFor, toolNamings } from "../../evolution/tool-naming.js";

const current = ["get_context", "complete_active_goal", "render_goal"];
const superseded = { complete_goal: "complete_active_goal" };
const released113 = new Set(["get_context", "complete_goal", "render_goal"]);
const released120 = new Set(["get_context", "complete_active_goal", "render_goal"]);

describe("evolution/tool-naming: results name tools as the caller's definitions do", () => {
  it("with nothing released every caller of a current tool holds the current set: no work per call", () => {
    assert.deepEqual([...toolNamings(current, superseded, []).keys()], ["complete_goal"]);
    assert.equal(toolNamings(current, {}, [released120]).size, 0);
  });

  it("while a release holds only the old tool, callers of shared tools and of the old name get the old name; callers of the replacement get the replacement", () => {
    const namings = toolNamings(current, superseded, [released113]);
    const shared = namings.get("get_context")!;
    assert.deepEqual([...shared.rename], [["complete_active_goal", "complete_goal"]]);
    assert.deepEqual([...shared.omit], []);
    assert.ok(namings.get("complete_goal"), "the adapter's callers hold 1.1.3");
    assert.equal(namings.get("complete_active_goal"), undefined);
  });

  it("once the replacement release is live beside the old one, shared tools still name the old tool; after the old release is retired nothing is renamed", () => {
    assert.ok(toolNamings(current, superseded, [released113, released120]).get("get_context"));
    assert.equal(toolNamings(current, superseded, [released120]).get("get_context"), undefined);
  });

  it("a superseded tool no record names is answered as a set from before the rename", () => {
    const naming = toolNamings(current, superseded, [released120]).get("complete_goal")!;
    assert.deepEqual([...naming.rename], [["complete_active_goal", "complete_goal"]]);
  });

  it("a new tool some candidate set lacks is left out of lists, never renamed to something else", () => {
    const naming = toolNamings([...current, "start_quiz"], superseded, [released120]).get(
      "get_context",
    )!;
    assert.deepEqual([...naming.omit], ["start_quiz"]);
    assert.deepEqual(
      nameToolsFor({ allowedActions: ["start_quiz", "render_goal"], op: "start_quiz" }, naming),
      { allowedActions: ["render_goal"], op: "start_quiz" },
    );
  });

  it("renames exact values and whole words in text, never inside a longer token; the input is not changed", () => {
    const naming = toolNamings(current, superseded, [released113]).get("get_context")!;
    const result = {
      allowedActions: ["complete_active_goal", "render_goal"],
      receipt: { operation: "complete_active_goal" },
      instructions: "Record it with complete_active_goal, then continue.",
      capability: "cap1.k1.Xcomplete_active_goal_abc",
      payload: "opt1.k1.complete_active_goal-xyz",
    };
    const before = structuredClone(result);
    assert.deepEqual(nameToolsFor(result, naming), {
      allowedActions: ["complete_goal", "render_goal"],
      receipt: { operation: "complete_goal" },
      instructions: "Record it with complete_goal, then continue.",
      capability: "cap1.k1.Xcomplete_active_goal_abc",
      payload: "opt1.k1.complete_active_goal-xyz",
    });
    assert.deepEqual(result, before);
  });
});
