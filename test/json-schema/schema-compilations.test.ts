import assert from "node:assert/strict";
import { createAjv } from "../../json-schema/ajv.js";
import { schemaCompilations } from "../../json-schema/schema-compilations.js";

describe("schema compilations are counted (L13)", () => {
  it("counts each validator Ajv compiles, not one it finds in its cache", () => {
    const ajv = createAjv();
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    const before = schemaCompilations();
    const validate = ajv.compile(schema);
    // The schema, and the draft 2020-12 meta-schemas a new instance checks it against.
    const first = schemaCompilations() - before;
    assert.ok(first >= 1);
    assert.equal(ajv.compile(schema), validate);
    assert.equal(schemaCompilations(), before + first);
    // An equal schema in another object is compiled again: what a per-request compile would do.
    ajv.compile({ ...schema });
    assert.equal(schemaCompilations(), before + first + 1);
  });

  it("keeps a caller's own code hook and counts the compilations it sees", () => {
    const seen: string[] = [];
    const ajv = createAjv({
      code: {
        process: (code) => {
          seen.push(code);
          return code;
        },
      },
    });
    const before = schemaCompilations();
    assert.equal(ajv.compile({ type: "string" })("x"), true);
    assert.ok(seen.length >= 1);
    assert.equal(schemaCompilations(), before + seen.length);
  });
});
