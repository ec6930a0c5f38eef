import assert from "node:assert/strict";
import { Server } from "@modelcontextprotocol/server";
import { schemaCompilations } from "../../../json-schema/schema-compilations.js";
import { sdkSchemaValidator } from "../../../runtime/mcp/sdk-schema-validator.js";

describe("the SDK's schema validator is one per endpoint (L13)", () => {
  it("compiles a schema once for every per-request Server that validates it", () => {
    const shared = sdkSchemaValidator();
    const schema = {
      type: "object",
      properties: { answer: { type: "string", format: "email" } },
      required: ["answer"],
    };
    const before = schemaCompilations();
    for (let request = 0; request < 5; request++) {
      // What the endpoint's factory does per request: a fresh Server holding the shared validator.
      const server = new Server({ name: "t", version: "1" }, { jsonSchemaValidator: shared });
      assert.ok(server);
      const check = shared.getValidator(schema);
      assert.equal(check({ answer: "a@example.com" }).valid, true);
      const refused = check({ answer: "not an address" });
      assert.equal(refused.valid, false);
      assert.match(String(refused.errorMessage), /format/);
    }
    assert.equal(schemaCompilations(), before + 1);
  });
});
