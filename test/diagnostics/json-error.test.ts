import assert from "node:assert/strict";
import { jsonError } from "../../diagnostics/json-error.js";

describe("diagnostics: why a text is not JSON, and where", () => {
  it("gives the parser's reason with the line and column of the first problem", () => {
    assert.equal(jsonError('{"a": 1}'), undefined);
    assert.deepEqual(jsonError('{\n  "a": 1,\n}'), {
      message: "Expected double-quoted property name at line 3 column 1",
      line: 3,
      column: 1,
    });
    assert.equal(
      jsonError("[1,2")?.message,
      "Expected ',' or ']' after array element at line 1 column 5",
    );
    assert.equal(jsonError("")?.message, "Unexpected end of input at line 1 column 1");
  });

  it("never quotes the text it could not parse (it may hold a secret)", () => {
    const error = jsonError('{"token": sk-live-123}');
    assert.ok(error);
    assert.doesNotMatch(error.message, /sk-live/);
    assert.match(error.message, /^Unexpected token 's' at line 1 column 11$/);
  });
});
