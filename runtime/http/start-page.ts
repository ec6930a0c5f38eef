import type { Context, Middleware } from "koa";
import {
  catalogs,
  defaultLocale,
  fillPlaceholders,
  isLocale,
  type Locale,
  locales,
} from "../i18n/index.js";
import { primaryLaneId } from "../lanes/lane.js";
import { type StartPageFiles, startPageFiles } from "./start-page-files.js";

/** What one rendering of the start page depends on. */
export interface StartPageView {
  lang: Locale;
  /**
   * The provider lane the session is for (`?lane=`): its endpoint alone serves the session, and
   * the ready panel shows its MCP URL. Default: the primary lane.
   */
  lane?: string;
  /** The lanes this server serves, offered as links (each its own start page). */
  lanes?: readonly string[];
  /** The launch API demands the first-party launch secret (the server is reachable beyond loopback). */
  launchKeyRequired: boolean;
  /**
   * How the learner is known: `development` (no issuer, loopback: the typed name is the account,
   * labelled as a development convenience), `signIn` (the issuer's login page, then the signed-in
   * subject), `name` (an issuer without a start page client: a first-party account name is typed,
   * with the launch key).
   */
  identity?: "development" | "signIn" | "name";
  /**
   * The signed-in learner: the page then shows who is signed in instead of the name field and
   * sends no `learner` (the server takes it from the sign-in).
   */
  signedInAs?: string;
  /**
   * Why the last sign-in came back without a learner: its response did not check out (`failed`),
   * or the issuer did not answer (`unreachable`).
   */
  signInProblem?: "failed" | "unreachable";
}

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The whole start page for one view; pure (the route picks the view). The page is
 * `ui/start-page/` (markup, style, script); this fills in the view's language's texts
 * (`startPage` of its catalog) and the view's facts, as escaped text and as the JSON block the
 * page's script reads.
 */
export function renderStartPage(
  view: StartPageView,
  files: StartPageFiles = startPageFiles(),
): string {
  const t = catalogs[view.lang].startPage;
  const identity = view.identity ?? "name";
  const lane = view.lane ?? primaryLaneId;
  // Every link of the page keeps the lane (the primary one is the page without `lane`).
  const laneQuery = lane === primaryLaneId ? "" : `&lane=${encodeURIComponent(lane)}`;
  const laneName = (id: string) => (t as Record<string, string>)[`lane.${id}`] ?? id;
  const dev = identity === "development";
  const language = (code: Locale) => ({
    code,
    name: catalogs[code].languageName,
    current: code === view.lang,
  });
  return files.render({
    lang: view.lang,
    t,
    // The language links in a fixed order; the coaching language choices start with the page's.
    languages: locales.map(language),
    laneQuery,
    laneChoice: (view.lanes ?? []).length > 1,
    lanes:
      (view.lanes ?? []).length > 1
        ? (view.lanes ?? []).map((id) => ({
            query: id === primaryLaneId ? "" : `&lane=${encodeURIComponent(id)}`,
            name: laneName(id),
            current: id === lane,
          }))
        : [],
    localeChoices: [view.lang, ...locales.filter((l) => l !== view.lang)].map(language),
    // With sign-in, the form appears once the learner is signed in; before, the issuer's login.
    signInCard: identity === "signIn" && !view.signedInAs,
    signInProblem: view.signInProblem
      ? {
          text: view.signInProblem === "unreachable" ? t.signInUnreachable : t.signInFailed,
          code: fillPlaceholders(t.errorCode, {
            code:
              view.signInProblem === "unreachable"
                ? "SIGN_IN_ISSUER_UNREACHABLE"
                : "SIGN_IN_NOT_COMPLETED",
          }),
        }
      : undefined,
    signedInAs: view.signedInAs,
    signedInAsText: view.signedInAs
      ? fillPlaceholders(t.signedInAs, { name: view.signedInAs })
      : "",
    learnerLabel: dev ? t.devNameLabel : t.nameLabel,
    learnerHint: dev ? t.devNameHint : t.nameHint,
    launchKeyRequired: view.launchKeyRequired,
    signOut: identity === "signIn" && Boolean(view.signedInAs),
    config: scriptJson({
      lang: view.lang,
      lane,
      signedInAs: view.signedInAs ?? null,
      strings: t,
    }),
  });
}

/** `?lang=` wins; otherwise the best of the server's languages in Accept-Language; else English. */
function pickLang(
  query: unknown,
  acceptsLanguages: (...langs: string[]) => string | false,
): Locale {
  if (isLocale(query)) return query;
  const best = acceptsLanguages(...locales);
  return isLocale(best) ? best : defaultLocale;
}

/**
 * `GET /start`: the first-party start page every session error points to (C14). A styled page in
 * English or German that calls `POST /api/sessions` and shows what comes next: the message with
 * the session id to send in the chat, or a human error with the stable code. With a start page
 * client at the configured issuer, the learner signs in there first; the launch key field appears
 * only when the launch API demands it; the key goes as a bearer token, never in the body.
 */
export function startPage(options: {
  launchKeyRequired: boolean;
  /** The lanes this server serves: `?lane=` names one of them (else the primary lane). */
  lanes: readonly string[];
  identity: NonNullable<StartPageView["identity"]>;
  signedIn?: (ctx: Context) => { name: string } | undefined;
}): Middleware {
  // Read once, when the server is put together; every request only fills the template in.
  const files = startPageFiles();
  return async (ctx) => {
    const lang = pickLang(ctx.query.lang, (...langs) => ctx.acceptsLanguages(...langs));
    const signedInAs = options.signedIn?.(ctx)?.name;
    const asked = ctx.query.lane;
    const lane = typeof asked === "string" && options.lanes.includes(asked) ? asked : primaryLaneId;
    ctx.set("Content-Security-Policy", files.contentSecurityPolicy);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("Cache-Control", "no-store");
    ctx.set("Vary", "Accept-Language, Cookie");
    ctx.set("Content-Language", lang);
    ctx.type = "html";
    ctx.body = renderStartPage(
      {
        lang,
        lane,
        lanes: options.lanes,
        launchKeyRequired: options.launchKeyRequired && !signedInAs,
        identity: options.identity,
        ...(signedInAs && { signedInAs }),
        ...((ctx.query.signin === "failed" || ctx.query.signin === "unreachable") && {
          signInProblem: ctx.query.signin,
        }),
      },
      files,
    );
  };
}
