import type { ApprovedDefinitions } from "../../evolution/approved-definitions.js";
import type { ServedContract } from "../mcp/served-contract.js";

/** The OAuth scopes a tool descriptor's security schemes name (top level or its `_meta` mirror). */
function scopesOf(descriptor: Record<string, unknown>): string[] {
  const meta = descriptor._meta as Record<string, unknown> | undefined;
  const schemes = descriptor.securitySchemes ?? meta?.securitySchemes;
  if (!Array.isArray(schemes)) return [];
  return schemes.flatMap((s) =>
    s && typeof s === "object" && Array.isArray((s as { scopes?: unknown }).scopes)
      ? ((s as { scopes: unknown[] }).scopes.filter((x) => typeof x === "string") as string[])
      : [],
  );
}

/**
 * Why this server is not compatible with every live approved tool definition (§10.1 rollback:
 * "compatibility with all currently approved live tool definitions"), or undefined when it is:
 * each definition's tool must be callable on the endpoint of its contract major, and every scope
 * it names must be one this server grants. One sentence naming the first gap.
 */
export function rollbackIncompatibility(
  live: ApprovedDefinitions | undefined,
  served: readonly ServedContract[],
  scopesSupported: readonly string[],
): string | undefined {
  if (!live) return undefined;
  const granted = new Set(scopesSupported);
  for (const [tool, definitions] of live.tools)
    for (const d of definitions) {
      const holder = d.holders.map((h) => h.version).join(", ");
      const endpoint = served.find((s) => s.contractMajor === d.contractMajor);
      if (!endpoint)
        return `no endpoint serves contract major ${d.contractMajor}, whose tool ${tool} ${holder} holds`;
      if (!endpoint.tools.has(tool))
        return `${tool}, held by ${holder}, is not served by contract major ${d.contractMajor}`;
      const missing = scopesOf(d.descriptor).find((scope) => !granted.has(scope));
      if (missing)
        return `${tool}, held by ${holder}, needs the scope ${missing}, which this server does not grant`;
    }
  return undefined;
}
