import assert from "node:assert/strict";
import { docFromText } from "../../../checks/diff/baselines.js";
import { diffContracts } from "../../../checks/diff/contract-diff.js";

// "Exactly one of a or b" written the way Go and TypeScript servers emit it: the object's
// properties as siblings of a `oneOf` whose branches say `required: [x]` and `not: {required: [y]}`.
// A reduced shape of a real change (github-mcp-server b01f7f5..6e19842, issue_write): the items are
// closed and `value` gets a type list.
const items = (closed: boolean, valueType?: string[], nameText = "the field") => ({
  type: "object",
  ...(closed ? { additionalProperties: false } : {}),
  properties: {
    name: { type: "string", description: nameText },
    option: { type: "string" },
    value: { description: "the value", ...(valueType ? { type: valueType } : {}) },
  },
  required: ["name"],
  oneOf: [
    { required: ["value"], not: { required: ["option"] } },
    { required: ["option"], not: { required: ["value"] } },
  ],
});
const side = (file: string, itemSchema: object) =>
  docFromText(
    JSON.stringify({
      tools: [
        {
          name: "set_fields",
          description: "Set fields.",
          inputSchema: {
            type: "object",
            properties: { fields: { type: "array", items: itemSchema } },
          },
        },
      ],
    }),
    file,
    [],
  )!;
const diff = (a: object, b: object) =>
  diffContracts([side("old.json", a)], side("new.json", b), {
    waivers: [],
    now: new Date("2026-12-01T00:00:00Z"),
  });

describe("Contract-Diff on exclusive oneOf branches beside declared properties (L6, L12.2)", () => {
  it("reports closing the items, with verified witnesses, and no removed property or overlap", () => {
    const result = diff(items(false), items(true));
    assert.equal(result.requiredBump, "major");
    assert.deepEqual(
      [...new Set(result.findings.map((f) => f.ruleId))],
      ["INPUT_ADDITIONAL_PROPERTIES_CLOSED"],
    );
    for (const f of result.findings) assert.equal(f.witness?.verified, true, f.message);
  });

  it("reports a type narrowed on the branch that admits the property, never on the one forbidding it", () => {
    const result = diff(items(true), items(true, ["string", "number", "boolean"]));
    assert.deepEqual(
      result.findings.map((f) => [f.ruleId, f.pointer.replace(/.*\/items\//, "")]),
      [["INPUT_TYPE_NARROWED", "oneOf/0/properties/value"]],
    );
    assert.equal(result.findings[0]!.witness?.verified, true);
  });

  it("finds nothing but a documentation edit when only a sibling's text changes", () => {
    for (const closed of [false, true]) {
      const result = diff(items(closed), items(closed, undefined, "the field's name"));
      assert.deepEqual(
        result.findings.map((f) => f.ruleId),
        ["SCHEMA_DOCS_CHANGED"],
      );
    }
  });
});
