import { docFromText } from "../../../../checks/diff/baselines.js";
import type { DirectoryProfile } from "../../../../checks/lint/directory/directory-rule.js";
import { lintDirectory } from "../../../../checks/lint/directory/lint-directory.js";
import type { Diagnostic } from "../../../../diagnostics/diagnostic.js";
import type { Wire } from "../../../support/wire.js";

const sid = { type: "string", pattern: "^sps_[A-Za-z0-9_-]{22,64}$" };
const hints = (readOnly: boolean) => ({
  title: readOnly ? "Get context" : "Record results",
  readOnlyHint: readOnly,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
const uri = `ui://demo/sha256-${"a".repeat(64)}/index.html`;

/**
 * A tools/list both directories accept: `get_context` (a read with a widget and its CSP, tool 0)
 * and `record_results` (a write, tool 1). Each case breaks one review rule.
 */
export function directoryListing(): Wire {
  return {
    tools: [
      {
        name: "get_context",
        title: "Get context",
        annotations: hints(true),
        _meta: { ui: { resourceUri: uri, csp: { connectDomains: ["https://api.example.com"] } } },
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId"],
          properties: { learningSessionId: sid },
        },
        outputSchema: { type: "object", properties: { goalId: { type: "string" } } },
      },
      {
        name: "record_results",
        title: "Record results",
        annotations: hints(false),
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId", "expectedStateVersion", "clientRequestId", "passed"],
          properties: {
            learningSessionId: sid,
            expectedStateVersion: { type: "integer", minimum: 0 },
            clientRequestId: { type: "string", format: "uuid" },
            passed: { type: "boolean" },
          },
        },
        outputSchema: {
          type: "object",
          required: ["receipt"],
          properties: { receipt: { type: "object" } },
        },
      },
    ],
  };
}

/** One directory profile's findings on a tools/list or snapshot (as parsed JSON). */
export const lintListing = (json: unknown, profile: DirectoryProfile): Diagnostic[] =>
  lintDirectory(docFromText(JSON.stringify(json), "tools.json", [])!, profile, json);

/** The findings of one rule under a profile, as [severity, pointer, message]. */
export const directoryFindingsOf = (
  rule: string,
  json: unknown,
  profile: DirectoryProfile,
): [string, string, string][] =>
  lintListing(json, profile)
    .filter((d) => d.ruleId === rule)
    .map((d) => [d.severity, d.location.pointer ?? "", d.message]);
