import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
} from "@modelcontextprotocol/server";
import type { LaneSettings } from "./lane.js";

/** The RFC 9728 path-aware metadata URL of a resource (the SDK's `/.well-known/…` insertion). */
export function resourceMetadataUrlOf(resource: string): string {
  return getOAuthProtectedResourceMetadataUrl(new URL(resource));
}

/** What the protected resource metadata documents say, besides each lane's resource. */
export interface MetadataSource {
  /** The primary lane's resource (the public MCP URL) and its metadata URL. */
  resource: string;
  resourceMetadataUrl: string;
  issuer: string;
  scopesSupported: readonly string[];
  lanes: readonly Pick<LaneSettings, "mcpPath" | "resource" | "resourceMetadataUrl">[];
}

/** The RFC 9728 protected resource metadata of one resource. */
export type ProtectedResourceMetadata = Readonly<Record<string, unknown>>;

/**
 * The protected resource metadata document of `resource`, built by the SDK's
 * `buildOAuthProtectedResourceMetadata` (which also checks the issuer URL: no query or fragment)
 * plus what this server says beyond it: tokens travel in the header only. `resource` stays the exact
 * string the tokens' audience must name (the SDK would serialize it as a URL). The issuer's scheme is
 * not checked here: the auth settings already require TLS beyond loopback, and a loopback test or
 * development issuer is plain http. No `jwks_uri`: in RFC 9728 it names keys the resource itself
 * signs with, and this server signs nothing.
 */
export function protectedResourceMetadata(
  source: Pick<MetadataSource, "issuer" | "scopesSupported">,
  resource: string,
  resourceName: string,
): ProtectedResourceMetadata {
  const built = buildOAuthProtectedResourceMetadata({
    oauthMetadata: { issuer: source.issuer } as Parameters<
      typeof buildOAuthProtectedResourceMetadata
    >[0]["oauthMetadata"],
    resourceServerUrl: new URL(resource),
    scopesSupported: [...source.scopesSupported],
    resourceName,
    dangerouslyAllowInsecureIssuerUrl: true,
  });
  return {
    resource,
    authorization_servers: built.authorization_servers,
    scopes_supported: built.scopes_supported,
    bearer_methods_supported: ["header"],
    resource_name: built.resource_name,
  };
}

/** One metadata document and the local path it is served at. */
export interface MetadataRoute {
  path: string;
  document: ProtectedResourceMetadata;
}

/**
 * Where each lane's metadata is served, all on the one public origin (L1): the primary resource's
 * at its path-aware URL and at the root well-known URL; every other lane's at the path-aware URL of
 * its local path and, when it is published on another host through a proxy, at its public metadata
 * path too, wherever no other document holds that path.
 */
export function metadataRoutes(source: MetadataSource, resourceName: string): MetadataRoute[] {
  const primary = protectedResourceMetadata(source, source.resource, resourceName);
  const path = new URL(source.resourceMetadataUrl).pathname;
  const routes: MetadataRoute[] = [
    { path, document: primary },
    { path: "/.well-known/oauth-protected-resource", document: primary },
  ];
  const taken = new Set([path]);
  for (const lane of source.lanes) {
    if (lane.resource === source.resource) continue;
    const document = protectedResourceMetadata(source, lane.resource, resourceName);
    const local = `/.well-known/oauth-protected-resource${lane.mcpPath}`;
    for (const at of new Set([local, new URL(lane.resourceMetadataUrl).pathname])) {
      if (taken.has(at)) continue;
      taken.add(at);
      routes.push({ path: at, document });
    }
  }
  return routes;
}

/**
 * Why the SDK's metadata builder refuses an issuer (RFC 8414: no query, no fragment), or
 * undefined: checked with the settings, so such an issuer stops the start with nothing created
 * instead of failing when the routes are built.
 */
export function issuerProblem(issuer: string): string | undefined {
  try {
    protectedResourceMetadata({ issuer, scopesSupported: [] }, "http://localhost/mcp", "");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : "is not a usable issuer URL";
  }
}
