import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import type { ContractModel } from "../../generator/model.js";
import { isObject } from "../../json-schema/walk.js";
import { directoryRules, lintDirectory } from "../../checks/lint/directory/lint-directory.js";
import { lintContract } from "../../checks/lint/lint-contract.js";

/** Format tag of the report. */
export const claudeReportFormat = "skillpilot-claude-directory-report/1";

/** One directory requirement and how the contract fares against it. */
export interface ReportCheck {
  id: string;
  requirement: string;
  /** `manual`: this repository cannot decide it; a release engineer confirms it. */
  status: "pass" | "fail" | "warn" | "manual";
  findings: string[];
}

/**
 * The Claude connector directory report: the connector's URL and how it starts OAuth (from the
 * claude lane), each checkable directory requirement with its findings, the ones a person must
 * confirm, and every tool's title and hints as reviewers see them. Pure: no I/O.
 */
export function buildClaudeReport(
  model: ContractModel,
  snapshot: { doc: ContractDoc; raw: unknown },
  version: string,
  /** The claude-directory profile's findings over the snapshot, when the caller already has them. */
  found: readonly Diagnostic[] = lintDirectory(snapshot.doc, "claude-directory", snapshot.raw),
): { json: Record<string, unknown>; diagnostics: readonly Diagnostic[] } {
  const lane = model.lanes.find((l) => l.id === "claude");
  const origin = new URL(String(model.plugin.mcpUrl)).origin;
  const connectorUrl = lane ? origin + lane.mcpPath : undefined;
  const listing = isObject(model.plugin.directory) ? model.plugin.directory : {};
  const checks: ReportCheck[] = [
    {
      id: "CONNECTOR_AUTH_AT_CONNECT",
      requirement:
        "The connector starts OAuth at connect: an unauthenticated request gets HTTP 401 with " +
        "an RFC 9728 resource_metadata challenge.",
      status: lane?.authentication === "at-connect" ? "pass" : "fail",
      findings: lane
        ? lane.authentication === "at-connect"
          ? []
          : [`the claude lane authenticates by ${lane.authentication}`]
        : ["schemas/lanes.json declares no claude lane"],
    },
    {
      id: "CONNECTOR_CLIENT_REGISTRATION",
      requirement:
        "The authorization server lets Claude register as a client, by Dynamic Client " +
        "Registration or a Client ID Metadata Document.",
      status: "manual",
      findings: [`confirm at ${String(model.plugin.oauthIssuer)}`],
    },
  ];
  const gate = lintContract(snapshot.doc).filter((d) => d.severity === "error");
  checks.push({
    id: "GATE_LINT",
    requirement: "The contract passes the automatable acceptance gate.",
    status: status(gate),
    findings: gate.map((d) => d.message),
  });
  for (const rule of directoryRules) {
    if (!rule.profiles.includes("claude-directory")) continue;
    const mine = found.filter((d) => d.ruleId === rule.rule.id);
    checks.push({
      id: rule.rule.id,
      requirement: rule.rule.summary,
      status: status(mine),
      findings: mine.map((d) => d.message),
    });
  }
  const json = {
    reportFormat: claudeReportFormat,
    plugin: model.plugin.packageName,
    displayName: model.plugin.displayName,
    version,
    connectorUrl: connectorUrl ?? null,
    privacyPolicyUrl:
      typeof listing.privacyPolicyUrl === "string" ? listing.privacyPolicyUrl : null,
    ready: checks.every((c) => c.status === "pass" || c.status === "warn" || c.status === "manual"),
    checks,
    tools: model.tools.map((t) => ({
      name: t.name,
      title: t.title,
      readOnlyHint: t.annotations.readOnlyHint,
      destructiveHint: t.annotations.destructiveHint,
      appOnly: JSON.stringify(t.visibility) === JSON.stringify(["app"]),
    })),
  };
  return { json, diagnostics: found };
}

function status(found: readonly Diagnostic[]): ReportCheck["status"] {
  if (found.some((d) => d.severity === "error")) return "fail";
  return found.length > 0 ? "warn" : "pass";
}
