import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Middleware } from "koa";
import { authInfoOf } from "../auth/auth-info.js";
import type { AuthRuntime } from "../auth/auth-runtime.js";
import type { LaneSettings } from "../auth/auth-settings.js";
import { bearerChallenge } from "../auth/challenge.js";
import { TokenRejected } from "../auth/token-verifier.js";
import { messageRefusal, refusalBody } from "../mcp/message-policy.js";
import { parseMcpBody } from "./mcp.route.js";

/**
 * JSON-RPC methods served without a token. The host lists tools and prefetches the UI pages before
 * the learner has linked an account, and none of these carries learner data (MCP Apps per-tool
 * authorization); every tool call needs a token. Anything not listed needs one too.
 */
const PUBLIC_METHODS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  // Every resource is a content-addressed UI page (no learner data); an unknown URI is not found.
  "resources/read",
]);

/** Who may see a request without a token. */
type Access = "public" | "tool-call" | "protected";

/** Classify a parsed JSON-RPC body (one message or a batch); anything unexpected is protected. */
export function classifyMcpRequest(body: unknown): Access {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return "protected";
  let toolCall = false;
  for (const message of messages) {
    if (!message || typeof message !== "object") return "protected";
    const { method, id } = message as { method?: unknown; id?: unknown };
    // A response to a server request has an id and a result or error, and no method.
    if (method === undefined && id !== undefined && ("result" in message || "error" in message))
      continue;
    if (typeof method !== "string") return "protected";
    if (method.startsWith("notifications/") || PUBLIC_METHODS.has(method)) continue;
    if (method === "tools/call") {
      toolCall = true;
      continue;
    }
    return "protected";
  }
  return toolCall ? "tool-call" : "public";
}

/** How many Authorization headers a request carries (raw headers are name, value, name, …). */
function authorizationHeaders(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === "authorization") count++;
  return count;
}

/** RFC 6750 b64token after `Bearer` (header only: never a query parameter or form body). */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The OAuth gate of `/mcp` (an OAuth 2.1 resource server): a request with an Authorization header
 * must carry a valid bearer token for this resource, or gets 401 `invalid_token`; without a token,
 * public methods pass, tool calls pass on to be answered with a tool-result challenge (the form a
 * host starts account linking from), and everything else gets 401 with the challenge (RFC 6750,
 * RFC 9728 `resource_metadata`). Only a request without a token is parsed here (to see what it
 * asks for); an authenticated one goes to the SDK unread, which parses it once. `policy`: while
 * this instance's client policy lease does not hold (another instance may have taken over), a
 * request with a token gets 503 and is served by nothing. `lane`: the provider lane the endpoint
 * serves (default the openai lane): its resource, its metadata URL and, for an auth-at-connect
 * lane, a 401 challenge for every request without a token.
 */
export function mcpAuthGate(
  auth: AuthRuntime,
  policy?: { current(): boolean | Promise<boolean> },
  lane: LaneSettings = auth.settings.lanes[0],
): Middleware {
  const { scopesSupported } = auth.settings;
  const resourceMetadataUrl = lane?.resourceMetadataUrl ?? auth.settings.resourceMetadataUrl;
  const resource = new URL(lane?.resource ?? auth.settings.resource);
  const verify = (token: string) => (lane ? auth.verifyOn(lane.id, token) : auth.verify(token));
  const parse = parseMcpBody();
  const refuse = (
    ctx: Parameters<Middleware>[0],
    error?: { description: string; code?: "invalid_request" },
  ): void => {
    const code = error?.code ?? "invalid_token";
    ctx.status = code === "invalid_request" ? 400 : 401;
    ctx.set(
      "WWW-Authenticate",
      bearerChallenge({
        resourceMetadata: resourceMetadataUrl,
        scopes: scopesSupported,
        ...(error && { error: code, description: error.description }),
      }),
    );
    ctx.body = {
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32001,
        message: !error
          ? "authentication required"
          : code === "invalid_request"
            ? "invalid authorization request"
            : "invalid access token",
      },
    };
  };
  return async (ctx, next) => {
    const headers = authorizationHeaders(ctx.req.rawHeaders);
    // Node keeps the first of repeated Authorization headers; which one counts would depend on
    // every proxy on the way, so a request with two is refused (RFC 6750 §3.1 invalid_request),
    // also when one of them is empty.
    if (headers > 1)
      return refuse(ctx, {
        code: "invalid_request",
        description: "the request carries more than one Authorization header",
      });
    // One empty header is no credential at all, as clients send it when they hold no token.
    const header = ctx.get("authorization");
    if (header) {
      const match = BEARER.exec(header);
      if (!match)
        return refuse(ctx, { description: "the Authorization header is not a Bearer token" });
      const current = policy?.current() ?? true;
      if (current !== true && !(await current)) {
        // The instance is stopping: read the body out first, so closing the connection cannot
        // reset it before the client has read this answer.
        await new Promise((resolve) => {
          ctx.req.once("end", resolve).once("error", resolve).resume();
        });
        ctx.status = 503;
        ctx.set("Connection", "close");
        ctx.set("Retry-After", "1");
        ctx.body = {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32001, message: "this server instance no longer serves: retry" },
        };
        return;
      }
      try {
        const caller = await verify(match[1]);
        (ctx.req as { auth?: AuthInfo }).auth = authInfoOf(match[1], caller, resource);
      } catch (error) {
        if (!(error instanceof TokenRejected)) throw error;
        return refuse(ctx, { description: error.message });
      }
      return next();
    }
    // An auth-at-connect lane: a standard MCP client starts OAuth from this 401 at connect.
    if (lane?.atConnect) return refuse(ctx);
    return parse(ctx, async () => {
      const body = (ctx.request as { body?: unknown }).body;
      // Refused bodies (too deep, a batch the revision does not allow) are answered here, before
      // anything else walks them: the SDK's adapter serializes a parsed body again.
      const refusal =
        ctx.method === "POST" && body !== undefined
          ? messageRefusal(body, ctx.get("mcp-protocol-version") || null)
          : undefined;
      if (refusal) {
        ctx.status = 400;
        ctx.body = refusalBody(refusal);
        return;
      }
      const access =
        ctx.method === "POST" && body !== undefined ? classifyMcpRequest(body) : "protected";
      if (access === "protected") return refuse(ctx);
      await next();
    });
  };
}
