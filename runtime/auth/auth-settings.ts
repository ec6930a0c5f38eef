import { contractScopes } from "../../generated/tools.gen.js";
import { isLoopbackHost, type RuntimeConfig, urlHost } from "../config/config.js";
import { StartupError } from "../config/startup-error.js";
import type { RuntimeIdentity } from "../identity.js";
import {
  type ActivatedProfile,
  type ClientProfile,
  developmentProfile,
  profileFingerprint,
  profileProblems,
} from "./client-profiles.js";
import { declaredLaneIds, isDeclaredLane, type LaneSettings } from "../lanes/lane.js";
import { resolveLanes } from "../lanes/lane-settings.js";
import { issuerProblem } from "../lanes/resource-metadata.js";
import { type IntrospectionSettings, resolveIntrospection } from "./introspection-settings.js";
import { allowedAlgorithms } from "./token-verifier.js";

/** How this server checks access tokens, resolved once at start-up. */
export interface AuthSettings {
  /** The local development issuer signs the tokens (loopback, embedded database only). */
  development: boolean;
  issuer: string;
  /** The one OAuth resource: the public MCP URL, which every token's audience must name (L1). */
  resource: string;
  /**
   * The resource as the client policy records it (fingerprints, rollback guard): `resource`, but
   * on loopback without `publicUrl` without the port, which is the bound port there (often picked
   * at random): moving a loopback server to another port is no cutover, and coming back to an
   * earlier port is no rollback.
   */
  policyResource: string;
  /** RFC 9728 protected resource metadata URL, on the resource's origin. */
  resourceMetadataUrl: string;
  /**
   * Every provider lane (schemas/lanes.json), the openai lane first: each its own OAuth resource
   * (the origin plus its path) and metadata document. The openai lane's resource is `resource`.
   */
  lanes: readonly LaneSettings[];
  /** The issuer's JWKS: a URL, a local file, or (development) the local key. */
  jwks: { uri: string } | { file: string } | { development: true };
  algorithms: readonly string[];
  clockSkewSeconds: number;
  jwksCooldownMs: number;
  jwksCacheMaxAgeMs: number;
  /** The client profiles configured now, with their fingerprints (L14). */
  profiles: readonly ActivatedProfile[];
  /** Every scope a tool of the contract needs (from the tool schemas). */
  scopesSupported: readonly string[];
  /** The token `/.well-known/openai-apps-challenge` answers with, when configured. */
  domainVerificationToken?: string;
  /** The lanes whose opaque tokens are verified by token introspection (RFC 7662), if any. */
  introspection?: IntrospectionSettings;
}

const invalid = (message: string) => new StartupError("AUTH_CONFIG_INVALID", message);

/**
 * Why this server is reachable from beyond this machine, or undefined when it is not: it binds
 * beyond loopback, or a public URL it answers to (the server's or a lane's) names an origin that is
 * not loopback — a reverse proxy or a tunnel on this machine forwards the world to a loopback bind.
 * A development tunnel (`developmentTunnel`) takes the public URLs out of the question; binding
 * beyond loopback never is.
 */
export function exposure(config: RuntimeConfig): string | undefined {
  if (!isLoopbackHost(config.host)) return `the server binds ${config.host}`;
  if (config.developmentTunnel) return undefined;
  const urls = [
    ...(config.publicUrl ? [["publicUrl", config.publicUrl]] : []),
    ...Object.entries(config.lanePublicUrls ?? {}).map(([lane, url]) => [
      `lanePublicUrls.${lane}`,
      url,
    ]),
  ];
  for (const [name, url] of urls) {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      continue; // refused with its own message where it is read
    }
    if (!isLoopbackHost(host)) return `${name} ${url} is not a loopback URL`;
  }
  return undefined;
}

/**
 * Resolve and check the OAuth settings of a configuration whose port is bound. The public MCP URL
 * is the resource: `publicUrl/mcp` when configured, the bound loopback origin on loopback, the
 * plugin's `mcpUrl` otherwise. A server reachable beyond this machine (`exposure`: bound beyond
 * loopback, or a public URL that is not loopback) serves exactly the plugin's MCP URL (one origin,
 * no dual audience, L1), with a real issuer over https that is the plugin's `oauthIssuer`; the
 * development issuer runs only on a server nobody else reaches, with the embedded database.
 */
export function resolveAuthSettings(
  config: RuntimeConfig,
  identity: Pick<RuntimeIdentity, "mcpUrl" | "oauthIssuer">,
): AuthSettings {
  const loopback = isLoopbackHost(config.host);
  const exposed = exposure(config);
  const origin = config.publicUrl
    ? config.publicUrl.replace(/\/+$/, "")
    : loopback
      ? `http://${urlHost(config.host)}:${config.port}`
      : new URL(identity.mcpUrl).origin;
  const resource = `${origin}/mcp`;
  // Each lane's own URL is checked first: its refusal names the lane.
  const lanes = resolveLanes(
    { origin, loopback, isLoopbackHost, lanePublicUrls: config.lanePublicUrls },
    invalid,
  );
  const policyResource =
    loopback && !config.publicUrl ? `http://${urlHost(config.host)}/mcp` : resource;
  if (exposed && resource !== identity.mcpUrl)
    throw invalid(
      `beyond loopback (${exposed}) the server's MCP URL must be the plugin's one public MCP URL ` +
        `${identity.mcpUrl} (the MCP URL is the OAuth resource), but this configuration serves ` +
        `${resource}; fix publicUrl (a development tunnel sets developmentTunnel)`,
    );
  const auth = config.auth ?? {};
  const development = !auth.issuer;
  if (development && (exposed || config.databaseUrl))
    throw invalid(
      "no OAuth issuer is configured: the development issuer runs only on loopback with the " +
        `embedded database (here ${exposed ?? "DATABASE_URL is set"}); production needs a real ` +
        "issuer (auth.issuer and auth.jwksUri, or SKILLPILOT_OAUTH_ISSUER and " +
        "SKILLPILOT_OAUTH_JWKS_URI)",
    );
  if (!development && !auth.jwksUri === !auth.jwksFile)
    throw invalid("auth needs exactly one of jwksUri and jwksFile for the issuer's keys");
  // Reached from beyond this machine, the issuer's keys come over the network: over plain http
  // anyone on the path could hand the server a key of their own (OAuth 2.1 requires TLS).
  if (!development && exposed)
    for (const [name, url] of [
      ["issuer", auth.issuer],
      ["jwksUri", auth.jwksUri],
    ] as const)
      if (url !== undefined && !url.startsWith("https://"))
        throw invalid(
          `auth.${name} must be an https URL when the server binds beyond loopback or is ` +
            `reached through a public URL (${exposed})`,
        );
  // The protected-resource metadata names the issuer: hosts send learners there to sign in.
  if (!development && exposed && auth.issuer !== identity.oauthIssuer)
    throw invalid(
      `beyond loopback (${exposed}) auth.issuer must be the plugin's authorization server ` +
        `${identity.oauthIssuer} (schemas/plugin.json oauthIssuer), the one its protected ` +
        `resource metadata names to hosts, but this configuration names ${auth.issuer}`,
    );
  const configured: readonly ClientProfile[] = auth.clientProfiles ?? [];
  if (!development && configured.length === 0)
    throw invalid(
      "auth.clientProfiles is empty: no client could obtain a token this server accepts",
    );
  const profiles = development ? [developmentProfile, ...configured] : configured;
  const names = new Set<string>();
  for (const p of profiles) {
    const problems = profileProblems(p);
    if (problems.length) throw invalid(problems.join("; "));
    const unknownLane = p.lanes?.find((id) => !isDeclaredLane(id));
    if (unknownLane)
      throw invalid(
        `client profile "${p.name}" names lane "${unknownLane}", which schemas/lanes.json does ` +
          `not declare (lanes: ${declaredLaneIds()})`,
      );
    if (names.has(p.name)) throw invalid(`client profile name "${p.name}" is used twice`);
    names.add(p.name);
  }
  const issuer = auth.issuer ?? origin;
  const issuerRefused = issuerProblem(issuer);
  if (issuerRefused) throw invalid(`the OAuth issuer ${issuer} is refused: ${issuerRefused}`);
  const algorithms = auth.algorithms ?? allowedAlgorithms;
  const introspection = resolveIntrospection(
    auth.introspection,
    { exposed, declared: lanes.map((l) => l.id) },
    invalid,
  );
  return {
    development,
    issuer,
    resource,
    policyResource,
    resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource${new URL(resource).pathname}`,
    lanes,
    jwks: development
      ? { development: true }
      : auth.jwksUri
        ? { uri: auth.jwksUri }
        : { file: auth.jwksFile as string },
    algorithms: algorithms.filter((a) => (allowedAlgorithms as readonly string[]).includes(a)),
    clockSkewSeconds: auth.clockSkewSeconds ?? 30,
    jwksCooldownMs: (auth.jwksCooldownSeconds ?? 30) * 1000,
    jwksCacheMaxAgeMs: (auth.jwksCacheMaxAgeSeconds ?? 600) * 1000,
    profiles: profiles.map((p) => ({ ...p, fingerprint: profileFingerprint(p, policyResource) })),
    scopesSupported: contractScopes,
    ...(auth.domainVerificationToken && {
      domainVerificationToken: auth.domainVerificationToken,
    }),
    ...(introspection && { introspection }),
  };
}
