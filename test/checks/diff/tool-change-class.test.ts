import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { classifyToolChange } from "../../../checks/diff/tool-change-class.js";
import { repoRoot } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";

const snapshot = JSON.parse(
  readFileSync(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"),
) as { tools: Wire[] };
const held = (() => {
  const { kind: _kind, ...d } = snapshot.tools.find(
    (t) => t.name === "get_skillpilot_learning_context",
  )!;
  return d as Wire;
})();
const changed = (edit: (t: Wire) => void) => {
  const copy = structuredClone(held);
  edit(copy);
  return copy;
};

describe("checks/diff: one tool's change class, for the definition-tag decisions", () => {
  it("an unchanged definition is server-only", () => {
    assert.equal(classifyToolChange(held, structuredClone(held)), "server-only");
  });

  it("an optional input added is MINOR: every call of the held definition is still accepted", () => {
    const now = changed((t) => (t.inputSchema.properties.detail = { enum: ["brief", "full"] }));
    assert.equal(classifyToolChange(held, now), "MINOR");
  });

  it("a required input added, or an input removed, is incompatible", () => {
    const required = changed((t) => {
      t.inputSchema.properties.detail = { enum: ["brief", "full"] };
      t.inputSchema.required.push("detail");
    });
    assert.equal(classifyToolChange(held, required), "incompatible");
    assert.equal(classifyToolChange(required, held), "incompatible");
  });
});
