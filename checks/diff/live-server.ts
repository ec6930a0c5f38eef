import { toolchainPackage } from "../../contract-model/toolchain.js";

/** Which protocol era to speak to a live server: negotiate (default), or pin one. */
export const protocolEras = ["auto", "modern", "legacy"] as const;
export type ProtocolEraChoice = (typeof protocolEras)[number];

/** A `http(s)://…` address `diff` lists over MCP instead of reading a file. */
export const isServerUrl = (spec: string): boolean => /^https?:\/\//i.test(spec);

/** How to reach a live server: extra request headers (e.g. a bearer token) and the era. */
export interface LiveServerOptions {
  headers?: Record<string, string>;
  era?: ProtocolEraChoice;
}

/**
 * The `tools/list` of a live MCP server, through the official MCP client (SDK v2) over Streamable
 * HTTP: `auto` probes `server/discover` (2026-07-28) and falls back to the 2025 `initialize`
 * handshake, `modern` pins 2026-07-28, `legacy` speaks 2025 only. Every page is collected. The
 * client keeps `_meta` but drops the top-level `securitySchemes` (Contract-Diff then reads the
 * `_meta.securitySchemes` mirror, or warns that the side carries no security information).
 */
export async function listLiveTools(
  url: string,
  options: LiveServerOptions = {},
): Promise<{ tools: unknown[]; protocolEra?: string }> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const era = options.era ?? "auto";
  const mode = era === "modern" ? { pin: "2026-07-28" } : era;
  const client = new Client(
    { name: "skillpilot-diff", version: toolchainPackage().version },
    { versionNegotiation: { mode } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: options.headers ?? {} },
  });
  await client.connect(transport);
  try {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return { tools, protocolEra: client.getProtocolEra() };
  } finally {
    await client.close();
  }
}
