import type fc from "fast-check";
import { toolDescriptors } from "../../../generated/tools.gen.js";
import {
  mutated,
  type Pools,
  type Schema,
  strange,
  valid,
} from "../../e2e/support/tool-arguments.js";
import type { Rng } from "./rng.js";

/**
 * What the ingress fuzzer sends: one HTTP request to an MCP endpoint, its body as text (so that
 * byte-level mutations can break it anywhere) and its credentials as a choice the target turns
 * into an `Authorization` header (tokens are minted by the server under test, never stored here).
 */
export interface IngressInput {
  /** The endpoint path: the public `/mcp` or another MCP mount of the server. */
  path: string;
  /** The HTTP method. */
  method: string;
  /** Request headers other than Authorization (lower-case names). */
  headers: Record<string, string>;
  auth: AuthChoice;
  body: string;
}

/**
 * The credentials of a request: the token of the learner whose session the body names (`owner`),
 * another learner's, none, a malformed or non-Bearer header, two headers, a token without the tool
 * scopes, an expired one, or one minted for another resource.
 */
export const authChoices = [
  "owner",
  "stranger",
  "none",
  "garbage",
  "basic",
  "double",
  "narrow",
  "expired",
  "foreign",
] as const;
export type AuthChoice = (typeof authChoices)[number];

/** Real values a request may carry: tool arguments, resource URIs, MCP mount paths. */
export interface IngressPools {
  args: Pools;
  uris: string[];
  paths: string[];
}

/** The JSON-RPC methods a request may name: the served ones, and some that are not. */
export const rpcMethods = [
  "tools/call",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "ping",
  "initialize",
  "notifications/initialized",
  "notifications/cancelled",
  "server/discover",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "resources/subscribe",
  "sampling/createMessage",
  "x-unknown/method",
];

/** The protocol revisions a request may name (current, older, unknown). */
export const protocolVersions = [
  "2026-07-28",
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "1999-01-01",
];

const MODERN = "2026-07-28";
const clientInfo = { name: "skillpilot-fuzz", version: "1.0.0" };

/** The `_meta` a 2026-07-28 request carries in its params. */
export const modernMeta = (): Record<string, unknown> => ({
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": clientInfo,
  "io.modelcontextprotocol/clientCapabilities": {},
});

/** The tool arguments of a generated `tools/call`: schema-valid or mutated (tool-fuzz's). */
export class ArgumentSource {
  private readonly cache = new Map<
    string,
    { ok: fc.Arbitrary<unknown>; bad: fc.Arbitrary<unknown> }
  >();

  constructor(private readonly pools: Pools) {}

  /** The pools changed: derive the arbitraries anew. */
  refresh(): void {
    this.cache.clear();
  }

  /** Valid arguments of `tool` (`good`), else mutated or junk ones; junk for a name not a tool. */
  draw(rng: Rng, tool: string, good: boolean): unknown {
    const descriptor = toolDescriptors.find((d) => d.name === tool);
    if (!descriptor) return rng.draw(strange);
    let arbs = this.cache.get(tool);
    if (!arbs) {
      const schema = descriptor.inputSchema as Schema;
      const ok = valid(schema, this.pools);
      arbs = { ok, bad: mutated(schema, ok) };
      this.cache.set(tool, arbs);
    }
    return rng.draw(good ? arbs.ok : arbs.bad);
  }
}

/** The params of a generated message of `method`. */
function paramsOf(method: string, rng: Rng, pools: IngressPools, args: ArgumentSource): object {
  switch (method) {
    case "tools/call": {
      const tool = rng.pick(toolDescriptors).name;
      return { name: tool, arguments: args.draw(rng, tool, rng.chance(0.55)) };
    }
    case "resources/read":
      return { uri: rng.chance(0.8) && pools.uris.length > 0 ? rng.pick(pools.uris) : "ui://x/y" };
    case "initialize":
      return { protocolVersion: rng.pick(protocolVersions), capabilities: {}, clientInfo };
    case "prompts/get":
      return { name: "x" };
    case "logging/setLevel":
      return { level: rng.pick(["debug", "info", "nonsense"]) };
    case "notifications/cancelled":
      return { requestId: 1, reason: "fuzz" };
    default:
      return {};
  }
}

/** The header a 2026-07-28 request names its method's target in (`Mcp-Name`). */
export function mcpName(message: { method?: unknown; params?: unknown }): string | undefined {
  const params = (message.params ?? {}) as { name?: unknown; uri?: unknown };
  const name = message.method === "resources/read" ? params.uri : params.name;
  return typeof name === "string" ? name : undefined;
}

/**
 * A fresh request: one JSON-RPC message (or, rarely, a batch) in the wire format of either
 * protocol era, with the owner's token; most of them `tools/call` with schema-derived arguments.
 */
export function freshInput(rng: Rng, pools: IngressPools, args: ArgumentSource): IngressInput {
  const modern = rng.chance(0.5);
  const message = (): Record<string, unknown> => {
    const method = rng.chance(0.7) ? "tools/call" : rng.pick(rpcMethods);
    const params = paramsOf(method, rng, pools, args);
    return {
      jsonrpc: "2.0",
      ...(!method.startsWith("notifications/") && { id: rng.int(1000) }),
      method,
      params: modern ? { ...params, _meta: modernMeta() } : params,
    };
  };
  const first = message();
  const body = rng.chance(0.05) ? [first, message()] : first;
  const name = mcpName(first);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(modern
      ? {
          "mcp-protocol-version": MODERN,
          "mcp-method": String(first.method),
          ...(name !== undefined && { "mcp-name": name }),
        }
      : rng.chance(0.8)
        ? { "mcp-protocol-version": rng.pick(protocolVersions.slice(1, 4)) }
        : {}),
  };
  const path = rng.chance(0.85) || pools.paths.length === 0 ? "/mcp" : rng.pick(pools.paths);
  return { path, method: "POST", headers, auth: "owner", body: JSON.stringify(body) };
}
