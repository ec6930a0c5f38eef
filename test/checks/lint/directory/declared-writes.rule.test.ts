import assert from "node:assert/strict";
import type { Wire } from "../../../support/wire.js";
import { directoryFindingsOf, directoryListing } from "../support/directory-listing.js";

const tool = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);

describe("DIRECTORY_HINT_CONTRADICTS_WRITES (checks/lint/directory/declared-writes.rule.ts)", () => {
  it("fires on a tool that takes an idempotency key but claims readOnlyHint:true", () => {
    const doc = directoryListing();
    tool(doc, "record_results").annotations.readOnlyHint = true;
    assert.deepEqual(
      directoryFindingsOf("DIRECTORY_HINT_CONTRADICTS_WRITES", doc, "claude-directory"),
      [
        [
          "error",
          "/tools/1/annotations/readOnlyHint",
          "record_results claims readOnlyHint:true but requires the idempotency key clientRequestId",
        ],
      ],
    );
  });

  it("fires under the ChatGPT profile on a read-only tool that claims to be open-world", () => {
    const doc = directoryListing();
    tool(doc, "get_context").annotations.openWorldHint = true;
    assert.deepEqual(
      directoryFindingsOf("DIRECTORY_HINT_CONTRADICTS_WRITES", doc, "openai-directory"),
      [
        [
          "error",
          "/tools/0/annotations/readOnlyHint",
          "get_context claims readOnlyHint:true and openWorldHint:true; a tool that only reads cannot be both",
        ],
      ],
    );
    assert.deepEqual(
      directoryFindingsOf("DIRECTORY_HINT_CONTRADICTS_WRITES", doc, "claude-directory"),
      [],
    );
  });

  it("stays quiet on the same write with readOnlyHint:false", () => {
    const doc = directoryListing();
    assert.equal(tool(doc, "record_results").annotations.readOnlyHint, false);
    for (const profile of ["openai-directory", "claude-directory"] as const)
      assert.deepEqual(directoryFindingsOf("DIRECTORY_HINT_CONTRADICTS_WRITES", doc, profile), []);
  });
});
