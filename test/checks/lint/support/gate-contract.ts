import { lintContract } from "../../../../checks/lint/lint-contract.js";
import { docFromText } from "../../../../checks/diff/baselines.js";
import type { Diagnostic } from "../../../../diagnostics/diagnostic.js";
import type { Wire } from "../../../support/wire.js";

const sid = { type: "string", pattern: "^sps_[A-Za-z0-9_-]{22,64}$" };
const hints = (readOnly: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

/**
 * A clean two-tool tools/list the gate lint passes: `get_context` (a read with a UI binding, tool
 * 0) and `record_results` (a batch write, tool 1). Each test breaks exactly one thing.
 */
export function cleanGateContract(): Wire {
  return {
    tools: [
      {
        name: "get_context",
        annotations: hints(true),
        _meta: { ui: { resourceUri: `ui://demo/sha256-${"a".repeat(64)}/index.html` } },
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId"],
          properties: { learningSessionId: sid },
        },
        outputSchema: {
          type: "object",
          properties: {
            requiredAction: { enum: ["teach"] },
            instruction: { type: "string" },
            goalId: { type: "string" },
          },
        },
      },
      {
        name: "record_results",
        annotations: hints(false),
        inputSchema: {
          type: "object",
          additionalProperties: false,
          required: ["learningSessionId", "expectedStateVersion", "clientRequestId", "assessments"],
          properties: {
            learningSessionId: sid,
            expectedStateVersion: { type: "integer", minimum: 0 },
            clientRequestId: { type: "string", format: "uuid" },
            assessments: {
              type: "array",
              items: {
                type: "object",
                additionalProperties: false,
                required: ["passed"],
                properties: { passed: { type: "boolean" } },
              },
            },
          },
        },
        outputSchema: {
          type: "object",
          required: ["receiptId"],
          properties: { continuation: { type: "object" }, receiptId: { type: "string" } },
        },
      },
    ],
  };
}

/** The gate lint's findings on a tools/list. */
export const lintWire = (json: unknown): Diagnostic[] =>
  lintContract(docFromText(JSON.stringify(json), "tools.json", [])!);

/** A tool of a tools/list by name. */
export const toolOf = (doc: Wire, name: string) => doc.tools.find((t: Wire) => t.name === name);

/** The clean contract with one edit applied. */
export function gateContractWith(edit: (doc: Wire) => void): Wire {
  const doc = cleanGateContract();
  edit(doc);
  return doc;
}

/** The findings of one rule on a tools/list, as [severity, pointer, message]. */
export const findingsOf = (rule: string, json: unknown): [string, string, string][] =>
  lintWire(json)
    .filter((d) => d.ruleId === rule)
    .map((d) => [d.severity, d.location.pointer ?? "", d.message]);
