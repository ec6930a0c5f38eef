import { Router } from "@koa/router";
import type { AuthRuntime } from "../auth/auth-runtime.js";
import { metadataRoutes } from "../lanes/resource-metadata.js";

/**
 * The public discovery documents, all on the one public origin (L1): RFC 9728 protected resource
 * metadata for each provider lane (`metadataRoutes`), the OpenAI Apps
 * domain-verification token, and — for the local development issuer only — its JWKS.
 */
export function wellKnownRoutes(auth: AuthRuntime, displayName: string): Router {
  const { settings } = auth;
  const router = new Router();
  const serve =
    (doc: Readonly<Record<string, unknown>>): Parameters<Router["get"]>[1] =>
    (ctx) => {
      ctx.set("Access-Control-Allow-Origin", "*");
      ctx.set("Cache-Control", "public, max-age=300");
      ctx.body = doc;
    };
  // Each lane's RFC 9728 document at its path-aware URL (and the primary's at the root one).
  for (const { path, document } of metadataRoutes(settings, displayName))
    router.get(path, serve(document));
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
