import { toolchainPackage } from "../../contract-model/project/toolchain.js";
import {
  boundedFetch,
  defaultLiveReadLimits,
  LiveReadCapError,
  type LiveReadLimits,
} from "./live-read-limits.js";

/** Which protocol era to speak to a live server: negotiate (default), or pin one. */
export const protocolEras = ["auto", "modern", "legacy"] as const;
export type ProtocolEraChoice = (typeof protocolEras)[number];

/** A `http(s)://…` address `diff` lists over MCP instead of reading a file. */
export const isServerUrl = (spec: string): boolean => /^https?:\/\//i.test(spec);

/** How to reach a live server: extra request headers (e.g. a bearer token), the era, the caps. */
export interface LiveServerOptions {
  headers?: Record<string, string>;
  era?: ProtocolEraChoice;
  /** Caps on what one session reads (defaults: {@link defaultLiveReadLimits}). */
  limits?: Partial<LiveReadLimits>;
}

/** The calls a live-server check makes, through the official client. */
export interface LiveClient {
  listTools(params?: { cursor: string }): Promise<{
    tools: unknown[];
    nextCursor?: string;
    ttlMs?: number;
    cacheScope?: string;
  }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{
    contents: { uri: string; text?: string; blob?: string }[];
  }>;
  getProtocolEra(): string | undefined;
}

/**
 * Run `work` with the official MCP client (SDK v2) connected to a live server over Streamable
 * HTTP: `auto` probes `server/discover` (2026-07-28) and falls back to the 2025 `initialize`
 * handshake, `modern` pins 2026-07-28, `legacy` speaks 2025 only. Closed afterwards. The session
 * is bounded: all its response bodies together by `maxBodyBytes`, its wall-clock time by
 * `timeoutMs`; passing either ends it with a {@link LiveReadCapError} naming the cap.
 */
export async function withLiveClient<T>(
  url: string,
  options: LiveServerOptions,
  work: (client: LiveClient) => Promise<T>,
): Promise<T> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const limits = { ...defaultLiveReadLimits, ...options.limits };
  const era = options.era ?? "auto";
  const mode = era === "modern" ? { pin: "2026-07-28" } : era;
  const client = new Client(
    { name: "skillpilot-diff", version: toolchainPackage().version },
    { versionNegotiation: { mode }, listMaxPages: limits.maxPages },
  );
  const late = new LiveReadCapError(
    `no complete answer within ${limits.timeoutMs / 1000} s (raise the cap with --live-timeout)`,
  );
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(late), limits.timeoutMs);
  const expired = new Promise<never>((_, reject) =>
    deadline.signal.addEventListener("abort", () => reject(late)),
  );
  expired.catch(() => undefined);
  const bounded = boundedFetch(limits, deadline.signal);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: options.headers ?? {} },
    fetch: bounded.fetch,
  });
  try {
    await Promise.race([client.connect(transport), expired]);
    return await Promise.race([work(client as unknown as LiveClient), expired]);
  } catch (error) {
    throw bounded.tripped() ?? (deadline.signal.aborted ? late : error);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    deadline.abort(late);
  }
}

/**
 * The `tools/list` of a live MCP server (every page). The official client keeps `_meta` but drops
 * the top-level `securitySchemes` (Contract-Diff then reads the `_meta.securitySchemes` mirror, or
 * warns that the side carries no security information).
 */
export async function listLiveTools(
  url: string,
  options: LiveServerOptions = {},
): Promise<{ tools: unknown[]; protocolEra?: string; ttlMs?: number; cacheScope?: string }> {
  return withLiveClient(url, options, async (client) => ({
    ...(await listAllTools(client, options.limits?.maxPages)),
    protocolEra: client.getProtocolEra(),
  }));
}

/**
 * Every page of a connected client's `tools/list`, with the listing's cache hint (the first
 * page's: 2026-07-28 servers send one, 2025-era ones none). A listing longer than `maxPages`
 * pages is refused with a {@link LiveReadCapError}.
 */
export async function listAllTools(
  client: LiveClient,
  maxPages = defaultLiveReadLimits.maxPages,
): Promise<{ tools: unknown[]; ttlMs?: number; cacheScope?: string }> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  let cache: { ttlMs?: number; cacheScope?: string } = {};
  let pages = 0;
  const pagesBeyond = () =>
    new LiveReadCapError(
      `tools/list goes on beyond ${maxPages} pages (raise the cap with --max-pages)`,
    );
  do {
    if (++pages > maxPages) throw pagesBeyond();
    const page = await client.listTools(cursor ? { cursor } : undefined).catch((e: Error) => {
      // The official client walks the pages itself, under the same cap (`listMaxPages`).
      throw /listMaxPages/.test(e.message) ? pagesBeyond() : e;
    });
    if (!cursor) cache = { ttlMs: page.ttlMs, cacheScope: page.cacheScope };
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return { tools, ...cache };
}
