import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { diffContracts } from "../../../../checks/diff/contract-diff.js";
import { parseContractDoc } from "../../../../contract-model/contract-doc.js";
import type { Diagnostic } from "../../../../diagnostics/diagnostic.js";
import {
  toolReferenceAdded,
  toolReferenceRemoved,
} from "../../../../checks/diff/rules/tool-reference.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";
import { repoRoot } from "../../../support/temp-project.js";
import type { Wire } from "../../../support/wire.js";

const snapshot = JSON.parse(
  await readFile(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8"),
) as Wire;
const OLD = "complete_skillpilot_goal";
const NEW = "complete_skillpilot_active_goal";

/** The snapshot with every tool-name enum (marked places) set to `names`. */
function withToolNames(doc: Wire, names: string[]): Wire {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const o = node as Wire;
      if (o["x-skillpilot-tool-reference"] === true) o.enum = [...names].sort();
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(doc);
  return doc;
}

/** Revision: the old tool superseded by a copy under the new name, names derived as the generator does. */
function renamed(base: Wire): Wire {
  const doc = structuredClone(base);
  const old = doc.tools.find((t: Wire) => t.name === OLD);
  old.supersededBy = NEW;
  doc.tools.push({ ...structuredClone(old), name: NEW, supersededBy: undefined });
  doc.tools = doc.tools.map((t: Wire) => JSON.parse(JSON.stringify(t)));
  return withToolNames(
    doc,
    doc.tools.map((t: Wire) => t.name),
  );
}

function diff(before: Wire, after: Wire) {
  const diagnostics: Diagnostic[] = [];
  const a = parseContractDoc(before, "old.json", diagnostics)!;
  const b = parseContractDoc(after, "new.json", diagnostics)!;
  assert.deepEqual(diagnostics, []);
  return diffContracts([a], b, { waivers: [], now: new Date(0), versionCheck: false });
}

describe("Contract-Diff: tool references and superseded tools (TOOL_REFERENCE_ADDED, TOOL_REFERENCE_REMOVED, SUPERSEDED_TOOL_REMOVED)", () => {
  proveByCorpus({ rules: [toolReferenceAdded, toolReferenceRemoved] }, [
    {
      rule: "TOOL_REFERENCE_ADDED",
      severity: "note",
      fires: "tool-reference-added",
      pointer: "/tools/get_context/outputSchema/properties/allowedActions/items",
      message:
        /^get_context: the tool-name field at \/properties\/allowedActions\/items may name a tool the contract adds; a caller is sent it only/,
      quiet: "tool-added",
    },
    {
      rule: "TOOL_REFERENCE_REMOVED",
      severity: "note",
      fires: "superseded-tool-removed",
      pointer: "/tools/get_context/outputSchema/properties/allowedActions/items",
      message:
        /^get_context: the tool-name field at \/properties\/allowedActions\/items no longer names a tool the contract removed$/,
      quiet: "tool-removed",
    },
  ]);

  it("a replacement tool widens every tool-name enum by its own name only: TOOL_ADDED and TOOL_REFERENCE_ADDED, minor, nothing breaking", () => {
    const result = diff(snapshot, renamed(snapshot));
    const ids = new Set(result.findings.map((f) => f.ruleId));
    assert.ok(ids.has("TOOL_ADDED") && ids.has("TOOL_REFERENCE_ADDED"), [...ids].join());
    assert.ok(!result.findings.some((f) => f.bump === "major"), JSON.stringify(result.findings));
    assert.equal(result.requiredBump, "minor");
  });

  it("a tool-name enum widened by a name that is no tool of the new contract stays breaking", () => {
    const after = withToolNames(structuredClone(snapshot), [
      ...snapshot.tools.map((t: Wire) => t.name),
      "not_a_tool",
    ]);
    const result = diff(snapshot, after);
    assert.ok(result.findings.some((f) => f.ruleId === "OUTPUT_ENUM_WIDENED"));
    assert.equal(result.requiredBump, "major");
  });

  it("the same widening without the marker is an ordinary widened output (the marker is the contract)", () => {
    const strip = (doc: Wire) =>
      JSON.parse(
        JSON.stringify(doc).replaceAll('"x-skillpilot-tool-reference":true', '"title":"x"'),
      );
    const result = diff(strip(snapshot), strip(renamed(snapshot)));
    assert.ok(result.findings.some((f) => f.ruleId === "OUTPUT_ENUM_WIDENED"));
  });

  it("removing the superseded tool with its adapter after the rename: SUPERSEDED_TOOL_REMOVED and TOOL_REFERENCE_REMOVED, patch; removing a current tool stays TOOL_REMOVED", () => {
    const before = renamed(snapshot);
    const after = structuredClone(before);
    after.tools = after.tools.filter((t: Wire) => t.name !== OLD);
    withToolNames(
      after,
      after.tools.map((t: Wire) => t.name),
    );
    const result = diff(before, after);
    const ids = result.findings.map((f) => f.ruleId);
    assert.ok(ids.includes("SUPERSEDED_TOOL_REMOVED"), ids.join());
    assert.ok(ids.includes("TOOL_REFERENCE_REMOVED"), ids.join());
    assert.ok(!ids.includes("TOOL_REMOVED"), ids.join());
    assert.equal(result.requiredBump, "patch");

    const held = diff(snapshot, after);
    assert.ok(held.findings.some((f) => f.ruleId === "TOOL_REMOVED" && f.tool === OLD));
    assert.equal(held.requiredBump, "major");
  });
});
