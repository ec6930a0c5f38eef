import assert from "node:assert/strict";
import { authorizationHeaders, bearerToken } from "../../../runtime/http/mcp-credentials.js";

describe("credentials at the /mcp edge (RFC 6750)", () => {
  it("counts every Authorization header of the raw headers, whatever its case", () => {
    assert.equal(authorizationHeaders(["Host", "x", "authorization", "a", "AUTHORIZATION", ""]), 2);
    assert.equal(authorizationHeaders(["host", "x"]), 0);
  });

  it("takes a b64token after Bearer only, in the header's own form", () => {
    assert.equal(bearerToken("Bearer abc.def-_~+/=="), "abc.def-_~+/==");
    assert.equal(bearerToken("bearer   tok  "), "tok");
    for (const header of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer a,b", "Token x"])
      assert.equal(bearerToken(header), undefined, header);
  });
});
