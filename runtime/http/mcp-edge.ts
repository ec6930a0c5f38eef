import { type AuthInfo, type McpHttpHandler, OAuthError } from "@modelcontextprotocol/server";
import type { Context, Middleware } from "koa";
import type { AuthRuntime } from "../auth/auth-runtime.js";
import { IntrospectionUnavailable } from "../auth/introspection-verifier.js";
import type { LaneSettings } from "../lanes/lane.js";
import { messageVerdict, refusalBody } from "../mcp/message-policy.js";
import { rememberPrototypeKey } from "../mcp/prototype-keys.js";
import { serveFetch, writeUnreadBody } from "./fetch-bridge.js";
import { anonymousParseError, classifyMcpRequest } from "./mcp-access.js";
import {
  authorizationHeaders,
  bearerToken,
  laneBearerVerification,
  refuseCredentials,
  refuseIntrospectionDown,
  refuseNotServing,
} from "./mcp-credentials.js";
import { readMcpBody } from "./request-body.js";

/** How an MCP endpoint is guarded. */
export interface McpEdgeOptions {
  /** The OAuth resource server. Without it every request is served without a token (benchmarks). */
  auth?: AuthRuntime;
  /** The provider lane the endpoint serves (default: the primary lane). */
  lane?: LaneSettings;
  /**
   * The client policy lease: while it does not hold (another instance may have taken over), a
   * request with a token gets 503 and is served by nothing.
   */
  policy?: { current(): boolean | Promise<boolean> };
}

/** JSON-RPC parse error of a request without a token (id null: no message was read). */
const PARSE_ERROR = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } };

/** What the credentials of a request came to: a verified token, none, or an answer already given. */
type Credentials = { authInfo: AuthInfo } | { anonymous: true } | { answered: true };

/**
 * The one edge of an MCP endpoint, between Koa's router and the SDK handler (an OAuth 2.1 resource
 * server on the lane's resource):
 * 1. credentials: two Authorization headers are refused (400 `invalid_request`: which one counts
 *    would depend on every proxy on the way); a header must be an RFC 6750 `Bearer` token, verified
 *    for this lane (`laneBearerVerification`, on the SDK's `verifyBearerToken`), else 401
 *    `invalid_token`; one empty header is no credential at all. Without a token, an auth-at-connect
 *    lane answers 401 with the challenge at once, unread;
 * 2. the body is read once, with one limit (the SDK's: 413 over it), and a JSON `POST` parsed once;
 * 3. the message policy runs once on the parsed value (`messageVerdict`: 400 with a JSON-RPC error);
 * 4. without a token only public methods pass, and tool calls (answered with a tool-result
 *    challenge, the form ChatGPT starts account linking from); anything else gets 401 with the
 *    challenge (RFC 9728 `resource_metadata`);
 * 5. the request goes to the handler's fetch face (`serveFetch`) with the parsed body and the
 *    verified token.
 */
export function mcpEdge(handler: McpHttpHandler, options: McpEdgeOptions = {}): Middleware {
  const { auth, policy } = options;
  const lane = options.lane ?? auth?.settings.lanes[0];
  const scopes = auth?.settings.scopesSupported ?? [];
  const verify = auth && lane ? laneBearerVerification(auth, lane) : undefined;

  const credentials = async (ctx: Context, gate: LaneSettings): Promise<Credentials> => {
    if (authorizationHeaders(ctx.req.rawHeaders) > 1) {
      refuseCredentials(ctx, gate, scopes, {
        code: "invalid_request",
        description: "the request carries more than one Authorization header",
      });
      return { answered: true };
    }
    const header = ctx.get("authorization");
    if (!header) {
      if (!gate.atConnect) return { anonymous: true };
      refuseCredentials(ctx, gate, scopes);
      return { answered: true };
    }
    const token = bearerToken(header);
    if (!token) {
      refuseCredentials(ctx, gate, scopes, {
        code: "invalid_token",
        description: "the Authorization header is not a Bearer token",
      });
      return { answered: true };
    }
    const current = policy?.current() ?? true;
    if (current !== true && !(await current)) {
      await refuseNotServing(ctx);
      return { answered: true };
    }
    try {
      return { authInfo: await (verify as NonNullable<typeof verify>)(token) };
    } catch (error) {
      if (error instanceof IntrospectionUnavailable) {
        await refuseIntrospectionDown(ctx);
        return { answered: true };
      }
      if (!(error instanceof OAuthError)) throw error;
      refuseCredentials(ctx, gate, scopes, { code: "invalid_token", description: error.message });
      return { answered: true };
    }
  };

  return async (ctx) => {
    const who: Credentials = lane && auth ? await credentials(ctx, lane) : { anonymous: true };
    if ("answered" in who) return;
    const anonymous = !("authInfo" in who) && auth !== undefined;
    // Without a token, only a JSON POST can ask for something public: anything else is refused
    // unread.
    if (anonymous && (ctx.method !== "POST" || !ctx.is("application/json")))
      return refuseCredentials(ctx, lane as LaneSettings, scopes);
    const body = await readMcpBody(ctx.req);
    if ("tooLarge" in body || "failed" in body) {
      ctx.respond = false;
      return writeUnreadBody(ctx.res, body);
    }
    if (anonymous && body.kind !== "json") {
      if (body.kind === "text") {
        ctx.status = 400;
        ctx.body = PARSE_ERROR;
        return;
      }
      return refuseCredentials(ctx, lane as LaneSettings, scopes);
    }
    let prototypeKey = false;
    if (body.kind === "json") {
      if (anonymous && anonymousParseError(body.text, body.value)) {
        ctx.status = 400;
        ctx.body = PARSE_ERROR;
        return;
      }
      const verdict = messageVerdict(body.value, ctx.get("mcp-protocol-version") || null);
      if (verdict.refusal) {
        ctx.status = 400;
        ctx.body = refusalBody(verdict.refusal);
        return;
      }
      prototypeKey = verdict.toolCallPrototypeKey;
      if (anonymous && classifyMcpRequest(body.value) === "protected")
        return refuseCredentials(ctx, lane as LaneSettings, scopes);
    }
    ctx.respond = false;
    await serveFetch(
      handler,
      ctx.req,
      ctx.res,
      body,
      "authInfo" in who ? who.authInfo : undefined,
      prototypeKey ? rememberPrototypeKey : undefined,
    );
  };
}
