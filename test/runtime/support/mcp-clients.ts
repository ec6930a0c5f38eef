import { setMaxListeners } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** What the tests need from either SDK's client. */
export interface CoachClient {
  era: string;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  listResources(): Promise<{ resources: { uri: string; name: string; mimeType?: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(uri: string): Promise<{
    contents: { uri: string; mimeType?: string; text?: string; _meta?: Record<string, unknown> }[];
  }>;
  close(): Promise<void>;
}

/** The parts of a tool result the tests look at. */
export interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The protocol eras every end-to-end test runs in: the v2 client on 2026-07-28, the v1 client on
 * 2025.
 */
export const eras = ["2026-07-28 (SDK v2)", "2025 stateless (SDK v1)"] as const;
/**
 * Also the v2 client speaking the 2025 protocol (`versionNegotiation: legacy`), for the core turn
 * suite.
 */
export const clientEras = [...eras, "2025 stateless (SDK v2)"] as const;
export type Era = (typeof clientEras)[number];

/** The calls both SDK clients share. */
interface SdkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listTools(): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  close(): Promise<void>;
}

function wrap(era: Era, client: SdkClient): CoachClient {
  return {
    era,
    callTool: async (name, args) =>
      (await client.callTool({ name, arguments: args })) as ToolResult,
    listTools: async () => (await client.listTools()) as never,
    listResources: async () => (await client.listResources()) as never,
    listResourceTemplates: async () => (await client.listResourceTemplates()) as never,
    readResource: async (uri) => (await client.readResource({ uri })) as never,
    close: () => client.close(),
  };
}

/**
 * The bearer token a request should carry, from its JSON-RPC body (undefined: send none), the way
 * a host sends the token of the user a call is for.
 */
export type Authorizer = (body: unknown) => Promise<string | undefined>;

/** Something a client can connect to: a URL, or a server that also says how to authorize. */
export interface McpTarget {
  mcpUrl: string;
  authorize?: Authorizer;
}

/** A fetch that adds `Authorization: Bearer …` chosen by `authorize` from the request body. */
function authorizingFetch(authorize: Authorizer): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has("authorization")) {
      let body: unknown;
      try {
        body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      } catch {
        body = undefined;
      }
      const token = await authorize(body);
      if (token) headers.set("authorization", `Bearer ${token}`);
    }
    // The SDK v1 transport passes one AbortSignal, living as long as the client, to every request;
    // each fetch adds a listener that undici removes only once the request is garbage-collected, so
    // a suite making thousands of calls on one client (tool-fuzz) crosses Node's warning threshold
    // without leaking anything.
    if (init?.signal) setMaxListeners(0, init.signal);
    return fetch(input, { ...init, headers });
  };
}

/**
 * Connect a real MCP client of the given era to a URL or a fixture server. A fixture authorizes
 * every request with the token of the learner whose session it names, unless `authorize` overrides
 * it (`false`: no token at all).
 */
export async function connectClient(
  target: string | McpTarget,
  era: Era,
  options: { authorize?: Authorizer | false } = {},
): Promise<CoachClient> {
  const url = typeof target === "string" ? target : target.mcpUrl;
  const authorize =
    options.authorize === false
      ? undefined
      : (options.authorize ?? (typeof target === "string" ? undefined : target.authorize));
  const transportOptions = authorize ? { fetch: authorizingFetch(authorize) } : {};
  if (era !== "2025 stateless (SDK v1)") {
    const mode = era === "2026-07-28 (SDK v2)" ? { pin: "2026-07-28" } : "legacy";
    const client = new Client(
      { name: "skillpilot-test", version: "1.0.0" },
      { versionNegotiation: { mode } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url), transportOptions));
    return wrap(era, client as unknown as SdkClient);
  }
  const client = new V1Client({ name: "skillpilot-test", version: "1.0.0" });
  await client.connect(new V1Transport(new URL(url), transportOptions));
  return wrap(era, client as unknown as SdkClient);
}

/** The stable error code at the start of an error result's text. */
export function errorCode(result: ToolResult): string | undefined {
  if (!result.isError) return undefined;
  return /^([A-Z_]+):/.exec(result.content[0]?.text ?? "")?.[1];
}

/** The JSON-RPC error code of a request the client rejected (v2 `ProtocolError`, v1 `McpError`). */
export function rpcErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/**
 * Send one `tools/call` as raw JSON-RPC over HTTP, in the wire format of `era`'s client, with
 * `argumentsJson` spliced in verbatim: for arguments an SDK client would not send as written (an
 * own `__proto__` key, escaped key names, non-object arguments). Answers the tool result, or the
 * JSON-RPC error and the HTTP status.
 */
export async function rawToolCall(
  url: string,
  era: (typeof eras)[number],
  name: string,
  argumentsJson: string,
  token?: string,
): Promise<{ status: number; result?: ToolResult; error?: { code: number; message: string } }> {
  const modern = era === "2026-07-28 (SDK v2)";
  const meta = modern
    ? ',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",' +
      '"io.modelcontextprotocol/clientInfo":{"name":"skillpilot-test","version":"1.0.0"},' +
      '"io.modelcontextprotocol/clientCapabilities":{}}'
    : "";
  const body =
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},` +
    `"arguments":${argumentsJson}${meta}}}`;
  const headers: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    ...(modern
      ? { "mcp-method": "tools/call", "mcp-name": name, "mcp-protocol-version": "2026-07-28" }
      : { "mcp-protocol-version": "2025-11-25" }),
    ...(token && { authorization: `Bearer ${token}` }),
  };
  const res = await fetch(url, { method: "POST", headers, body });
  const text = await res.text();
  // The 2025 stateless answer is one SSE event; the 2026 one plain JSON.
  const json = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  const message = json ? (JSON.parse(json) as { result?: ToolResult; error?: never }) : {};
  return { status: res.status, ...message };
}

/** A client spread over several server instances: each call goes to the next one in turn. */
export interface SpreadClient extends CoachClient {
  /** One client per instance, for calls that must land on a given instance. */
  readonly perInstance: readonly CoachClient[];
  /** The instance index each call so far went to, in call order. */
  readonly served: readonly number[];
}

/**
 * Connect one client of `era` to each of `urls` (instances of one deployment sharing a database)
 * and alternate between them call by call, as a load balancer without session affinity would.
 */
export async function connectSpread(
  urls: readonly string[],
  era: Era,
  authorize?: Authorizer,
): Promise<SpreadClient> {
  const clients = await Promise.all(
    urls.map((url) => connectClient(url, era, authorize ? { authorize } : {})),
  );
  const served: number[] = [];
  const next = () => {
    const i = served.length % clients.length;
    served.push(i);
    return clients[i];
  };
  return {
    era,
    perInstance: clients,
    served,
    callTool: (name, args) => next().callTool(name, args),
    listTools: () => next().listTools(),
    listResources: () => next().listResources(),
    listResourceTemplates: () => next().listResourceTemplates(),
    readResource: (uri) => next().readResource(uri),
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
    },
  };
}
