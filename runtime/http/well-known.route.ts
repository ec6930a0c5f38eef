import { Router } from "@koa/router";
import type { AuthRuntime } from "../auth/auth-runtime.js";

/**
 * The public discovery documents, all on the one public origin (L1): RFC 9728 protected resource
 * metadata for the MCP endpoint (at its path-aware and its root well-known URL), the OpenAI Apps
 * domain-verification token, and — for the local development issuer only — its JWKS.
 */
export function wellKnownRoutes(auth: AuthRuntime, displayName: string): Router {
  const { settings } = auth;
  const router = new Router();
  const metadata = {
    resource: settings.resource,
    authorization_servers: [settings.issuer],
    scopes_supported: settings.scopesSupported,
    bearer_methods_supported: ["header"],
    resource_name: displayName,
    // No `jwks_uri`: in RFC 9728 it names keys the resource itself signs with, and this server
    // signs nothing. The development issuer's keys are the issuer's (served below).
  };
  const serve =
    (doc: Record<string, unknown>): Parameters<Router["get"]>[1] =>
    (ctx) => {
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.set("Cache-Control", "public, max-age=300");
      ctx.body = doc;
    };
  const serveMetadata = serve(metadata);
  const path = new URL(settings.resourceMetadataUrl).pathname;
  router.get(path, serveMetadata);
  router.get("/.well-known/oauth-protected-resource", serveMetadata);
  // Every other provider lane: its own resource, at its own path-aware metadata URL (RFC 9728).
  // A lane published on another host through a proxy is mapped onto its path here; its public
  // metadata path is served too where no other document holds that path.
  const taken = new Set([path]);
  for (const lane of settings.lanes) {
    if (lane.resource === settings.resource) continue;
    const own = serve({ ...metadata, resource: lane.resource });
    const local = `/.well-known/oauth-protected-resource${lane.mcpPath}`;
    for (const at of new Set([local, new URL(lane.resourceMetadataUrl).pathname])) {
      if (taken.has(at)) continue;
      taken.add(at);
      router.get(at, own);
    }
  }
  router.get("/.well-known/openai-apps-challenge", (ctx) => {
    if (!settings.domainVerificationToken) {
      ctx.status = 404;
      ctx.type = "text/plain";
      ctx.body = "no domain verification token is configured\n";
      return;
    }
    ctx.type = "text/plain";
    ctx.body = settings.domainVerificationToken;
  });
  if (auth.devIssuer) {
    const jwks = auth.devIssuer.jwks;
    router.get("/.well-known/jwks.json", (ctx) => {
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.body = jwks;
    });
    // RFC 8414 authorization server metadata, where a standard client looks after reading the
    // protected resource metadata's `authorization_servers`. The development issuer has no
    // authorization or token endpoint (its tokens come from `skillpilot auth token`), so it names
    // no grant or response type: a client learns that at once instead of from a 404.
    const serverMetadata = {
      issuer: settings.issuer,
      jwks_uri: `${settings.issuer}/.well-known/jwks.json`,
      scopes_supported: settings.scopesSupported,
      response_types_supported: [],
      grant_types_supported: [],
      token_endpoint_auth_methods_supported: ["none"],
    };
    router.get("/.well-known/oauth-authorization-server", (ctx) => {
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.set("Cache-Control", "public, max-age=300");
      ctx.body = serverMetadata;
    });
  }
  return router;
}
