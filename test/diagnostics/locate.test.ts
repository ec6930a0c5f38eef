import assert from "node:assert/strict";
import { locatePointer, pointerSegments } from "../../diagnostics/locate.js";

describe("diagnostics: JSON pointer location", () => {
  it("decodes RFC 6901 escapes, and percent-escapes only in the URI fragment form", () => {
    assert.deepEqual(pointerSegments(""), []);
    assert.deepEqual(pointerSegments("/a~1b/c~0d/0"), ["a/b", "c~d", "0"]);
    assert.deepEqual(pointerSegments("/properties/100%"), ["properties", "100%"]);
    assert.deepEqual(pointerSegments("#/properties/100%25"), ["properties", "100%"]);
    assert.deepEqual(pointerSegments("#/bad%zz"), ["bad%zz"]);
  });

  it("points at the property name of the deepest existing node (1-based line and column)", () => {
    const text = '{\n  "tools": [\n    { "name": "a", "100%": { "x": 1 } }\n  ]\n}\n';
    assert.deepEqual(locatePointer(text, "/tools/0/100%/x"), { line: 3, column: 30 });
    assert.deepEqual(locatePointer(text, "/tools/0/name"), { line: 3, column: 7 });
    // A pointer past the end of the document falls back to its deepest existing ancestor.
    assert.deepEqual(locatePointer(text, "/tools/0/missing/deeper"), { line: 3, column: 5 });
  });
});
