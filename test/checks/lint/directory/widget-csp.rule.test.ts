import assert from "node:assert/strict";
import type { Wire } from "../../../support/wire.js";
import { directoryFindingsOf, directoryListing } from "../support/directory-listing.js";

const tool = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);
const uri = `ui://demo/sha256-${"a".repeat(64)}/index.html`;

describe("DIRECTORY_WIDGET_CSP (checks/lint/directory/widget-csp.rule.ts)", () => {
  it("fires on a widget CSP with a wildcard origin", () => {
    const doc = directoryListing();
    tool(doc, "get_context")._meta.ui.csp.connectDomains = ["https://*.example.com"];
    assert.deepEqual(directoryFindingsOf("DIRECTORY_WIDGET_CSP", doc, "openai-directory"), [
      [
        "error",
        "/tools/0/_meta",
        'get_context: the widget CSP list connectDomains allows "https://*.example.com"; name exact https origins only',
      ],
    ]);
  });

  it("warns when a listing declares no CSP for a widget (the resource may)", () => {
    const doc = directoryListing();
    delete tool(doc, "get_context")._meta.ui.csp;
    assert.deepEqual(directoryFindingsOf("DIRECTORY_WIDGET_CSP", doc, "claude-directory"), [
      [
        "warning",
        "/tools/0/_meta",
        `get_context renders ${uri} but the listing declares no widget CSP for it; declare _meta.ui.csp on the resource`,
      ],
    ]);
  });

  it("stays quiet on a CSP that names exact https origins", () => {
    const doc = directoryListing();
    tool(doc, "get_context")._meta.ui.csp.connectDomains = ["https://api.example.com:8443"];
    for (const profile of ["openai-directory", "claude-directory"] as const)
      assert.deepEqual(directoryFindingsOf("DIRECTORY_WIDGET_CSP", doc, profile), []);
  });
});
