/**
 * The definition tag a server's `tools/list` carries under 2026-07-28 (definition tags on), read
 * once before the benchmark's tagged-context slices: what a host that holds the current listing
 * echoes in `_meta["io.modelcontextprotocol/knownTags"]` on each call.
 */
export async function currentTag(mcpUrl: string): Promise<string> {
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-method": "tools/list",
      "mcp-protocol-version": "2026-07-28",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  const tag = ((await res.json()) as { result?: { tag?: unknown } }).result?.tag;
  if (typeof tag !== "string") throw new Error(`${mcpUrl} lists no definition tag`);
  return tag;
}
