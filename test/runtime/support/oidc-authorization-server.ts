import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type ClientMetadata, errors } from "oidc-provider";
import type { ClientProfile } from "../../../runtime/auth/client-profiles.js";

/** A native public client identified by its metadata document URL (the CIMD shape of §10.1). */
export const nativeCimdProfile: ClientProfile = {
  name: "e2e-desktop",
  kind: "public-cimd",
  clientId: "https://client.skillpilot.test/oauth/e2e/client.json",
  redirectUris: ["http://127.0.0.1/callback/skillpilot-e2e"],
  tokenEndpointAuthMethod: "none",
  pkce: "S256",
};

/**
 * The start page's own client at the issuer (public, PKCE), for a server on `port` of loopback:
 * its sign-in callback and its post-logout redirect registered.
 */
export function startPageClientMetadata(clientId: string, port: number): ClientMetadata {
  return {
    client_id: clientId,
    application_type: "native",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
    redirect_uris: [`http://127.0.0.1:${port}/start/callback`],
    post_logout_redirect_uris: [`http://127.0.0.1:${port}/start/signed-out`],
  };
}

/**
 * A real OAuth 2.1 authorization server for end-to-end tests: oidc-provider on a loopback port,
 * with its one client registered from a SkillPilot client profile (public, PKCE S256, loopback
 * redirect), RFC 8707 resource indicators for the one MCP resource, and JWT access tokens whose
 * audience is that resource. Login and consent are answered programmatically:
 * `POST /interaction/:uid/login` with `login=<subject>` stands in for a person at a login form;
 * a browser (`Accept: text/html`) gets that form as the issuer's own login page.
 */
export interface TestAuthorizationServer {
  issuer: string;
  jwksUri: string;
  /** Its RFC 7662 introspection endpoint (enabled when `introspectionClient` is given). */
  introspectionEndpoint: string;
  close(): Promise<void>;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let data = "";
  req.setEncoding("utf8");
  for await (const chunk of req) data += chunk;
  return data;
}

export async function startAuthorizationServer(options: {
  /** The one resource (MCP URL) tokens are for; read when a token is issued. */
  resource: () => string;
  profile: ClientProfile;
  scopes: readonly string[];
  /** Further registered clients (oidc-provider client metadata), e.g. the start page's. */
  clients?: readonly ClientMetadata[];
  /**
   * False: the discovery document leaves out `authorization_response_iss_parameter_supported`
   * (RFC 9207), as an issuer that does not promise `iss` would; responses still carry it.
   */
  advertiseIssParameter?: boolean;
  /** False: the discovery document names no `end_session_endpoint` (no RP-Initiated Logout). */
  offerLogout?: boolean;
  /** Tokens for this resource are opaque (introspected), not JWTs. */
  opaqueResource?: () => string;
  /** A resource server's confidential client allowed to introspect (HTTP Basic). */
  introspectionClient?: { clientId: string; clientSecret: string };
}): Promise<TestAuthorizationServer> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "as-key-1", alg: "RS256", use: "sig" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.profile.clientId,
        application_type: "native",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: [...options.profile.redirectUris],
      },
      ...(options.clients ?? []),
      ...(options.introspectionClient
        ? [
            {
              client_id: options.introspectionClient.clientId,
              client_secret: options.introspectionClient.clientSecret,
              grant_types: [],
              response_types: [],
              redirect_uris: [],
              token_endpoint_auth_method: "client_secret_basic" as const,
            },
          ]
        : []),
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["test-only-cookie-key"] },
    scopes: ["openid", "offline_access", ...options.scopes],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: options.introspectionClient !== undefined },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? options.resource(),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== options.resource()) throw new errors.InvalidTarget();
          if (options.opaqueResource?.() === resource)
            return {
              scope: options.scopes.join(" "),
              audience: resource,
              accessTokenTTL: 600,
              accessTokenFormat: "opaque",
            };
          return {
            scope: options.scopes.join(" "),
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, Interaction: 600, Session: 600 },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  });
  if (options.advertiseIssParameter === false || options.offerLogout === false)
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path !== "/.well-known/openid-configuration" || !ctx.body) return;
      const body = ctx.body as Record<string, unknown>;
      if (options.advertiseIssParameter === false)
        delete body.authorization_response_iss_parameter_supported;
      if (options.offerLogout === false) delete body.end_session_endpoint;
    });
  const callback = provider.callback();
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? "/", issuer);
      const login = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
      if (!login) return callback(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        const html = req.method === "GET" && /text\/html/.test(req.headers.accept ?? "");
        // A browser signed in already is only asked for consent: given at once, as the form's
        // POST gives it.
        const signedIn = html && details.prompt.name !== "login" ? details.session?.accountId : "";
        if (html && !signedIn) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test issuer: sign in</title></head>' +
              `<body><h1>Test issuer</h1><form method="post" action="/interaction/${details.uid}/login">` +
              '<label for="login">Account</label> <input id="login" name="login" required> ' +
              '<button type="submit">Continue</button></form></body></html>',
          );
          return;
        }
        if (req.method === "GET" && !signedIn) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ uid: details.uid, prompt: details.prompt.name }));
          return;
        }
        const accountId = signedIn || new URLSearchParams(await readBody(req)).get("login");
        if (!accountId) throw new Error("login required");
        const grant = new provider.Grant({
          accountId,
          clientId: String(details.params.client_id),
        });
        const missing = details.prompt.details as {
          missingOIDCScope?: string[];
          missingResourceScopes?: Record<string, string[]>;
        };
        if (missing.missingOIDCScope?.length)
          grant.addOIDCScope(missing.missingOIDCScope.join(" "));
        for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
          grant.addResourceScope(resource, scopes.join(" "));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      } catch (error) {
        res.writeHead(400, { "content-type": "text/plain" });
        res.end(String((error as Error).message));
      }
    })();
  });
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Follow an authorization URL like a browser, log in as `login` at the interaction endpoint (and
 * consent), and return the URL the server redirected to — the client's callback with the code.
 */
export async function authorizeHeadless(
  authorizationUrl: URL,
  login: string,
  callbackPrefix: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () =>
    jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } : undefined;
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.href.startsWith(callbackPrefix)) return url;
    let res = await fetch(url, { redirect: "manual", headers: cookie() });
    keep(res);
    if (res.status === 200 && url.pathname.startsWith("/interaction/")) {
      await res.json();
      res = await fetch(new URL(`${url.pathname}/login`, url), {
        method: "POST",
        redirect: "manual",
        body: new URLSearchParams({ login }),
        headers: { ...cookie(), "content-type": "application/x-www-form-urlencoded" },
      });
      keep(res);
    }
    if (res.status < 300 || res.status >= 400)
      throw new Error(`unexpected ${res.status} at ${url.href}: ${await res.text()}`);
    url = new URL(res.headers.get("location") ?? "", url);
  }
  throw new Error("too many redirects");
}
