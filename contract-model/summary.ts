import type { ContractSnapshot } from "./snapshot.js";

const hints = (a: ContractSnapshot["tools"][number]["annotations"]) =>
  [
    a.readOnlyHint ? "readOnly" : "mutating",
    a.destructiveHint ? "destructive" : "non-destructive",
    a.idempotentHint ? "idempotent" : "non-idempotent",
    a.openWorldHint ? "open-world" : "closed-world",
  ].join(", ");

/**
 * A human summary of the contract: identity, version layers, line policy and each tool with kind
 * and annotations.
 */
export function contractSummary(s: ContractSnapshot): string {
  const p = s.plugin;
  const l = s.line as Record<string, unknown>;
  const width = Math.max(...s.tools.map((t) => t.name.length));
  const lines = [
    `${p.displayName} (${p.packageName})`,
    `  package version    ${p.packageVersion}`,
    `  contract major     ${s.contractMajor}`,
    `  workflow version   ${String(p.workflowVersion)}`,
    `  state schema       ${String(p.stateSchemaVersion)}`,
    `  MCP URL            ${String(p.mcpUrl)}`,
    `  OAuth resource     ${String(p.oauthResource)}`,
    `  widget origin      ${String(p.widgetOrigin)}`,
    `  line               policyRevision ${String(l.policyRevision)}, ` +
      `${String(l.supportLifecycle)}, ${String(l.publicationStatus)}, ` +
      `${String(l.newSessionPolicy)}, successor ` +
      `${l.successor ? JSON.stringify(l.successor) : "none"}`,
    "",
    `Tools (${s.tools.length}):`,
    ...s.tools.map((t) => {
      const ui = (t._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
      return (
        `  ${t.name.padEnd(width)}  ${t.kind.padEnd(8)}  ` +
        `${hints(t.annotations)}${ui ? `  ui ${ui}` : ""}`
      );
    }),
  ];
  return `${lines.join("\n")}\n`;
}
