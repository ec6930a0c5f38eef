import assert from "node:assert/strict";
import { sampleValue } from "../../../checks/diff/sample.js";
import { findIncompatibilities } from "../../../checks/diff/schema-subset.js";
import { ValueChecker } from "../../../checks/diff/value-check.js";
import type { Schema } from "../../../json-schema/schema-facts.js";

// Tuples (`prefixItems`) are compared position by position, the tail by `items`; array samples
// honour tuple positions and `contains`.
const checker = new ValueChecker();
const gaps = (source: Schema, target: Schema) =>
  findIncompatibilities(source, target, checker).map((i) => ({
    kind: i.kind,
    path: i.path,
    witness: i.witness,
    verified: i.verified,
  }));
const S = { type: "string" };
const arr = (more: object) => ({ type: "array", items: S, minItems: 2, ...more }) as Schema;

describe("Contract-Diff tuples (prefixItems) and array samples (L12.2)", () => {
  it("a dropped tuple position whose tail accepts its values is no gap", () => {
    assert.deepEqual(
      gaps(arr({ prefixItems: [S, { const: "x" }] }), arr({ prefixItems: [S] })),
      [],
    );
  });

  it("a narrowed position is a gap at that position, with a verified witness there", () => {
    assert.deepEqual(gaps(arr({ prefixItems: [S] }), arr({ prefixItems: [S, { const: "x" }] })), [
      { kind: "const", path: "/prefixItems/1", witness: ["", ""], verified: true },
    ]);
  });

  it("a tuple added over plain items constrains the first positions", () => {
    const [gap] = gaps(arr({}), arr({ prefixItems: [{ const: "x" }] }));
    assert.equal(gap.path, "/prefixItems/0");
    assert.equal(gap.verified, true);
  });

  it("reordered positions are gaps both ways", () => {
    const a = arr({ prefixItems: [S, { const: "x" }] });
    const b = arr({ prefixItems: [{ const: "x" }, S] });
    assert.ok(gaps(a, b).some((g) => g.verified));
    assert.ok(gaps(b, a).some((g) => g.verified));
  });

  it("samples an array by its tuple positions and its contains", () => {
    assert.deepEqual(sampleValue(arr({ prefixItems: [{ const: "x" }] })), ["x", ""]);
    const contains = {
      type: "array",
      items: { type: "integer" },
      contains: { minimum: 5 },
      minContains: 2,
    };
    const v = sampleValue(contains as Schema);
    assert.equal(checker.accepts(contains as Schema, v), true, JSON.stringify(v));
  });
});
