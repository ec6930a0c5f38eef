import { sortDiagnostics, type Diagnostic } from "../../../diagnostics/diagnostic.js";
import { pointerSegments } from "../../../diagnostics/locate.js";
import type { ContractDoc } from "../../../contract-model/contract-doc.js";
import { widgetCsp } from "../../../contract-model/ui/widget-csp.js";
import { isObject, type JsonObject } from "../../../json-schema/walk.js";
import { lintTool, type LintTool } from "../lint-rule.js";
import { explicitAnnotations, truthfulAnnotations } from "../rules/annotations.rule.js";
import { mcpHeaderRules } from "../rules/mcp-header.rule.js";
import { hintsMatchDeclaredWrites } from "./declared-writes.rule.js";
import type {
  DeclaredCsp,
  DirectoryContext,
  DirectoryProfile,
  DirectoryRule,
} from "./directory-rule.js";
import { privacyPolicyUrl } from "./privacy-policy.rule.js";
import {
  appOnlyHelper,
  outputSchemaDeclared,
  toolNameLength,
  toolTitle,
} from "./tool-listing.rule.js";
import { widgetCspDeclared } from "./widget-csp.rule.js";

/** The directory review rules, in reporting order; each names the profiles that apply it. */
export const directoryRules: readonly DirectoryRule[] = [
  toolNameLength,
  toolTitle,
  hintsMatchDeclaredWrites,
  appOnlyHelper,
  widgetCspDeclared,
  outputSchemaDeclared,
  privacyPolicyUrl,
];

/**
 * One directory's review rules over a contract document, with the gate's two annotation rules
 * (both directories require all hints explicit and truthful) and its `x-mcp-header` rules (a host
 * drops a tool whose header mapping breaks them); the rest of the acceptance gate is
 * this contract's own bar, not a directory's. `raw` is the document as parsed (for the plugin
 * identity and the tools' `_meta`); without it only what the parsed document keeps is checked.
 */
export function lintDirectory(
  doc: ContractDoc,
  profile: DirectoryProfile,
  raw?: unknown,
): Diagnostic[] {
  const tools = [...doc.tools.values()].map(lintTool).sort((a, b) => (a.name < b.name ? -1 : 1));
  const ctx: DirectoryContext = {
    profile,
    ...(doc.format === "snapshot" && isObject(raw) && isObject(raw.plugin)
      ? { plugin: raw.plugin }
      : {}),
    cspOf: (tool) => (doc.format === "snapshot" ? { ...widgetCsp } : listedCsp(raw, tool)),
  };
  const out: Diagnostic[] = [];
  for (const rule of [explicitAnnotations, truthfulAnnotations, ...mcpHeaderRules])
    rule.check(tools, doc, (d) => out.push(d));
  for (const rule of directoryRules)
    if (rule.profiles.includes(profile)) rule.check(tools, doc, ctx, (d) => out.push(d));
  return sortDiagnostics(out);
}

/** The CSP a plain listing declares on the tool itself (MCP Apps `ui.csp` or OpenAI's mirror). */
function listedCsp(raw: unknown, tool: LintTool): DeclaredCsp | undefined {
  let node: unknown = raw;
  for (const segment of pointerSegments(tool.pointer))
    node = isObject(node) || Array.isArray(node) ? (node as JsonObject)[segment] : undefined;
  const meta = isObject(node) && isObject(node._meta) ? node._meta : undefined;
  if (!meta) return undefined;
  const lists = (o: JsonObject): DeclaredCsp =>
    Object.fromEntries(
      Object.entries(o)
        .filter(([, v]) => Array.isArray(v))
        .map(([k, v]) => [k, (v as unknown[]).map(String)]),
    );
  if (isObject(meta.ui) && isObject(meta.ui.csp)) return lists(meta.ui.csp);
  if (isObject(meta["openai/widgetCSP"])) return lists(meta["openai/widgetCSP"]);
  return undefined;
}
