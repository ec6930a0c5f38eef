import { createHash, randomBytes } from "node:crypto";
import { Router } from "@koa/router";
import { jwtVerify } from "jose";
import type { Context, Middleware } from "koa";
import { keyResolver } from "../auth/key-source.js";
import { defaultLocale, isLocale } from "../i18n/index.js";
import { primaryLaneId } from "../lanes/lane.js";
import type { RuntimeServices } from "../services.js";
import { cookieSealer } from "./sealed-cookie.js";

/** Who signed in on the start page: the issuer's subject and a name to greet them with. */
export interface SignedIn {
  sub: string;
  name: string;
}

/** The start page's sign-in through the configured issuer (authorization code + PKCE S256). */
export interface StartPageSignIn {
  router: Router;
  /** The learner signed in on this request's browser, from the sealed cookie. */
  signedIn(ctx: Context): SignedIn | undefined;
}

const SESSION_COOKIE = "skillpilot_signin";
const FLOW_COOKIE = "skillpilot_signin_flow";
/** Set by a sign-out: the next sign-in on this browser must log in at the issuer afresh. */
const FRESH_COOKIE = "skillpilot_signin_fresh";
const FRESH_SECONDS = 30 * 24 * 3600;

/** Why the start page's sign-in came back without a learner. */
export type SignInProblem = "failed" | "unreachable";
const SESSION_SECONDS = 8 * 3600;
const FLOW_SECONDS = 600;

const b64 = (buf: Buffer) => buf.toString("base64url");
const random = () => b64(randomBytes(32));

/** The issuer's endpoints, from its OpenID configuration (fetched once, again after a failure). */
interface IssuerMetadata {
  authorization_endpoint: string;
  token_endpoint: string;
  /** RFC 9207: every authorization response carries `iss`. */
  authorization_response_iss_parameter_supported?: boolean;
  /** OpenID Connect RP-Initiated Logout: where a client ends the issuer's session. */
  end_session_endpoint?: string;
}

/** An ID token longer than this is not kept for the logout hint (the cookie must stay small). */
const HINT_MAX = 2048;

/** An endpoint of the issuer's discovery document: an absolute http(s) URL. */
const isEndpoint = (value: unknown): value is string =>
  typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);

/**
 * The issuer's discovery document if it names both endpoints the sign-in uses; otherwise the
 * issuer counts as not answering (rather than the start page failing on the missing endpoint).
 */
function usableMetadata(document: unknown): IssuerMetadata {
  const doc = document as Partial<IssuerMetadata> | null;
  if (!doc || !isEndpoint(doc.authorization_endpoint) || !isEndpoint(doc.token_endpoint))
    throw new TypeError("the issuer's discovery document names no usable endpoints");
  return doc as IssuerMetadata;
}

/**
 * RFC 9207 issuer identification of an authorization response: an `iss` given must be the issuer,
 * letter for letter, and an issuer that promises `iss` must give it. Anything else may be a
 * response of another issuer replayed to this callback (a mix-up attack).
 */
function issuerIdentified(iss: unknown, issuer: string, metadata: IssuerMetadata): boolean {
  if (iss === undefined) return metadata.authorization_response_iss_parameter_supported !== true;
  return iss === issuer;
}

/**
 * `/start/sign-in` → the issuer's own login page → `/start/callback` → `/start`, signed in: the
 * start page as a client of the configured issuer. The callback checks the state and the PKCE
 * verifier it sealed into a short-lived cookie and the response's issuer (RFC 9207), redeems the
 * code at the token endpoint and verifies the ID token (issuer, audience = the start page's
 * client, nonce, the issuer's keys); the learner is its `sub`. Undefined when no issuer or no start page client is configured.
 */
export function startPageSignIn(services: RuntimeServices): StartPageSignIn | undefined {
  const { settings } = services.auth;
  const client = services.config.auth?.signIn;
  if (settings.development || !client || "development" in settings.jwks) return undefined;
  const origin = new URL(settings.resource).origin;
  const redirectUri = `${origin}/start/callback`;
  const signedOutUri = `${origin}/start/signed-out`;
  const secure = origin.startsWith("https:");
  const cookies = cookieSealer(services);
  const keys = keyResolver(
    "uri" in settings.jwks
      ? {
          kind: "remote",
          jwksUri: settings.jwks.uri,
          cooldownMs: settings.jwksCooldownMs,
          cacheMaxAgeMs: settings.jwksCacheMaxAgeMs,
        }
      : { kind: "file", file: settings.jwks.file },
  );
  let metadata: Promise<IssuerMetadata> | undefined;
  const issuerMetadata = () => {
    metadata ??= fetch(`${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5000),
    })
      .then((res) => (res.ok ? (res.json() as Promise<unknown>) : Promise.reject()))
      .then(usableMetadata)
      .catch((error: unknown) => {
        metadata = undefined;
        throw error;
      });
    return metadata;
  };
  // An https public origin is served over TLS, by this server or by the proxy in front of it (which
  // talks plain http to it): the cookies are Secure either way, so a browser never sends them in
  // clear.
  const cookie = (ctx: Context, name: string, value: string, seconds: number, path = "/") => {
    if (secure) ctx.cookies.secure = true;
    ctx.cookies.set(name, value, {
      httpOnly: true,
      sameSite: "lax",
      secure,
      path,
      maxAge: seconds * 1000,
      overwrite: true,
    });
  };
  const lang = (value: unknown) => (isLocale(value) ? value : defaultLocale);
  // The lane of the start page the sign-in began on, so the learner comes back to it.
  const laneOf = (value: unknown) =>
    typeof value === "string" &&
    settings.lanes.some((l) => l.id === value && l.id !== primaryLaneId)
      ? value
      : undefined;
  /**
   * Back to the start page: signed in, or with why not — `failed` (the response did not check
   * out) or `unreachable` (the issuer did not answer; logged, so an operator sees it).
   */
  const back = (ctx: Context, l: string, problem?: SignInProblem, lane?: string) =>
    ctx.redirect(
      `/start?lang=${l}${lane ? `&lane=${lane}` : ""}${problem ? `&signin=${problem}` : ""}`,
    );
  const unreachable = (ctx: Context, l: string, lane: string | undefined, error: unknown) => {
    services.logger.warn(
      { issuer: settings.issuer, reason: error instanceof Error ? error.name : "unknown" },
      "the start page's sign-in could not reach the issuer",
    );
    back(ctx, l, "unreachable", lane);
  };

  const router = new Router();
  router.get("/start/sign-in", async (ctx) => {
    const l = lang(ctx.query.lang);
    const lane = laneOf(ctx.query.lane);
    let endpoints: IssuerMetadata;
    try {
      endpoints = await issuerMetadata();
    } catch (error) {
      return unreachable(ctx, l, lane, error);
    }
    const flow = {
      state: random(),
      nonce: random(),
      verifier: random(),
      lang: l,
      ...(lane && { lane }),
    };
    cookie(
      ctx,
      FLOW_COOKIE,
      cookies.seal({ ...flow, exp: cookies.now() + FLOW_SECONDS }),
      FLOW_SECONDS,
      "/start",
    );
    const url = new URL(endpoints.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: redirectUri,
      // A name to greet the learner with: OpenID Connect's standard claims, where the issuer
      // grants them (the subject stays the account).
      scope: "openid profile email",
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: b64(createHash("sha256").update(flow.verifier).digest()),
      code_challenge_method: "S256",
      // After a sign-out on this browser, the next person signs in afresh: the issuer's own
      // session must not sign them in as the previous learner.
      ...(ctx.cookies.get(FRESH_COOKIE) && { prompt: "login" }),
    }).toString();
    ctx.set("Cache-Control", "no-store");
    ctx.redirect(url.href);
  });

  router.get("/start/callback", async (ctx) => {
    const flow = cookies.open<{
      state: string;
      nonce: string;
      verifier: string;
      lang: string;
      lane?: string;
    }>(ctx.cookies.get(FLOW_COOKIE));
    ctx.cookies.set(FLOW_COOKIE, null, { path: "/start" });
    const l = lang(flow?.lang);
    const lane = laneOf(flow?.lane);
    const { code, state, iss } = ctx.query;
    if (!flow || typeof code !== "string" || state !== flow.state)
      return back(ctx, l, "failed", lane);
    try {
      const endpoints = await issuerMetadata();
      if (!issuerIdentified(iss, settings.issuer, endpoints)) return back(ctx, l, "failed", lane);
      const { token_endpoint } = endpoints;
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      };
      if (client.clientSecret)
        headers.authorization = `Basic ${Buffer.from(
          `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`,
        ).toString("base64")}`;
      const res = await fetch(token_endpoint, {
        method: "POST",
        headers,
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri,
          code_verifier: flow.verifier,
          client_id: client.clientId,
        }),
        signal: AbortSignal.timeout(5000),
      });
      const answer = (await res.json()) as { id_token?: unknown };
      if (!res.ok || typeof answer.id_token !== "string") return back(ctx, l, "failed", lane);
      const { payload } = await jwtVerify(answer.id_token, keys, {
        issuer: settings.issuer,
        audience: client.clientId,
        algorithms: [...settings.algorithms],
        clockTolerance: settings.clockSkewSeconds,
        requiredClaims: ["sub", "exp", "iat"],
      });
      const sub = payload.sub;
      if (payload.nonce !== flow.nonce || typeof sub !== "string" || !sub || sub.length > 200)
        return back(ctx, l, "failed", lane);
      const named = [payload.name, payload.preferred_username, payload.email].find(
        (v): v is string => typeof v === "string" && v.length > 0 && v.length <= 200,
      );
      cookie(
        ctx,
        SESSION_COOKIE,
        // Bound to its issuer: after the configuration names another issuer, the cookie names
        // nobody there (the same subject at another issuer is another person).
        cookies.seal({
          sub,
          name: named ?? sub,
          iss: settings.issuer,
          ...(answer.id_token.length <= HINT_MAX && { idt: answer.id_token }),
          exp: cookies.now() + SESSION_SECONDS,
        }),
        SESSION_SECONDS,
      );
      ctx.cookies.set(FRESH_COOKIE, null, { path: "/start" });
      back(ctx, l, undefined, lane);
    } catch (error) {
      // A network failure or timeout is the issuer not answering; anything else did not check out.
      if (error instanceof TypeError || (error instanceof Error && error.name === "TimeoutError"))
        unreachable(ctx, l, lane, error);
      else back(ctx, l, "failed", lane);
    }
  });

  // Called by the page's script (a form post would carry `Origin: null` under its referrer
  // policy, which the origin guard refuses). It answers where the browser goes next: the issuer's
  // logout (OpenID Connect RP-Initiated Logout, where the issuer offers it), which ends the
  // issuer's own session too and comes back to `/start/signed-out`; else the start page.
  router.post("/start/sign-out", async (ctx) => {
    const l = lang(ctx.query.lang);
    const lane = laneOf(ctx.query.lane);
    const kept = cookies.open<{ idt?: string; iss?: string }>(ctx.cookies.get(SESSION_COOKIE));
    ctx.cookies.set(SESSION_COOKIE, null, { path: "/" });
    // The issuer's session may survive its logout (a person may cancel it there): the next
    // sign-in here asks it for a fresh login (prompt=login) all the same, so a shared computer
    // never hands on the learner.
    cookie(ctx, FRESH_COOKIE, "1", FRESH_SECONDS, "/start");
    let next = `/start?lang=${l}${lane ? `&lane=${lane}` : ""}`;
    const endpoint = await issuerMetadata().then(
      (m) => m.end_session_endpoint,
      () => undefined,
    );
    if (endpoint) {
      const url = new URL(endpoint);
      url.searchParams.set("client_id", client.clientId);
      url.searchParams.set("post_logout_redirect_uri", signedOutUri);
      url.searchParams.set("state", lane ? `${l}.${lane}` : l);
      url.searchParams.set("ui_locales", l);
      if (kept?.idt && kept.iss === settings.issuer)
        url.searchParams.set("id_token_hint", kept.idt);
      next = url.href;
    }
    ctx.set("Cache-Control", "no-store");
    ctx.body = { next };
  });

  // Back from the issuer's logout: the state names the start page's language and lane.
  router.get("/start/signed-out", (ctx) => {
    const [l, lane] = String(ctx.query.state ?? "").split(".");
    back(ctx, lang(l), undefined, laneOf(lane));
  });

  return {
    router,
    signedIn: (ctx) => {
      const value = cookies.open<SignedIn & { iss?: string }>(ctx.cookies.get(SESSION_COOKIE));
      return value && typeof value.sub === "string" && value.iss === settings.issuer
        ? { sub: value.sub, name: value.name }
        : undefined;
    },
  };
}

/**
 * The launch API's guard with sign-in: a browser signed in on the start page launches for itself
 * without the launch secret; anyone else goes through `guard` (the secret beyond loopback).
 */
export function signedInOr(signIn: StartPageSignIn | undefined, guard: Middleware): Middleware {
  return (ctx, next) => (signIn?.signedIn(ctx) ? next() : guard(ctx, next));
}
