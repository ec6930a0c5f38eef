import type { Log, ReportingDescriptor, Result } from "sarif";
import type { Diagnostic } from "../diagnostic.js";
import { docsBaseUrl, ruleById } from "../rule.js";

const level = { error: "error", warning: "warning", note: "note" } as const;

/**
 * SARIF 2.1.0 log with one run: the rules used (from the shared rule table: summary, default level
 * and docs link; a change rule's summary names its bump) and one result per diagnostic.
 * `data.fingerprint`, when a diagnostic has one, becomes a partial fingerprint so code scanning
 * tracks a finding across commits; the rest of `data` travels as result properties.
 */
export function renderSarif(diagnostics: readonly Diagnostic[]): string {
  const ids = [...new Set(diagnostics.map((d) => d.ruleId))].sort();
  const rules: ReportingDescriptor[] = ids.map((id) => {
    const rule = ruleById(id);
    if (!rule)
      return { id, shortDescription: { text: id }, defaultConfiguration: { level: "error" } };
    return {
      id,
      shortDescription: { text: rule.bump ? `${rule.summary} [${rule.bump}]` : rule.summary },
      helpUri: new URL(rule.docs, docsBaseUrl).href,
      defaultConfiguration: { level: level[rule.severity] },
    };
  });
  const results: Result[] = diagnostics.map((d) => {
    const { fingerprint, ...rest } = d.data ?? {};
    const region =
      d.location.line !== undefined
        ? {
            region: {
              startLine: d.location.line,
              ...(d.location.column !== undefined ? { startColumn: d.location.column } : {}),
            },
          }
        : {};
    return {
      ruleId: d.ruleId,
      ruleIndex: ids.indexOf(d.ruleId),
      level: level[d.severity],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: d.location.file }, ...region },
          ...(d.location.pointer !== undefined
            ? {
                logicalLocations: [
                  { fullyQualifiedName: d.location.pointer || "/", kind: "element" },
                ],
              }
            : {}),
        },
      ],
      ...(typeof fingerprint === "string"
        ? { partialFingerprints: { "skillpilot/v1": fingerprint } }
        : {}),
      ...(Object.keys(rest).length > 0 ? { properties: rest } : {}),
    };
  });
  const log: Log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "skillpilot", informationUri: "https://skillpilot.com", rules } },
        results,
        columnKind: "unicodeCodePoints",
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
