import { createHash } from "node:crypto";
import type { Context, Middleware } from "koa";

/** Languages of the start page (the same two as the error texts, C3). */
export type StartPageLang = "en" | "de";

/** What one rendering of the start page depends on. */
export interface StartPageView {
  lang: StartPageLang;
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
  /** The last sign-in failed (the callback sent the learner back). */
  signInFailed?: boolean;
}

type Strings = Record<(typeof STRING_KEYS)[number], string>;

const STRING_KEYS = [
  "title",
  "heading",
  "intro",
  "languageNav",
  "nameLabel",
  "nameHint",
  "devNameLabel",
  "devNameHint",
  "signInIntro",
  "signIn",
  "signOut",
  "signInFailed",
  "signedInAs",
  "localeLabel",
  "keyLabel",
  "keyHint",
  "submit",
  "submitting",
  "readyHeading",
  "readyNext",
  "chatMessage",
  "copy",
  "copied",
  "copyFailed",
  "expires",
  "sessionIdLabel",
  "connector",
  "warnHeading",
  "warnText",
  "openSuccessor",
  "continueHere",
  "errorHeading",
  "errorCode",
  "error.INVALID_INPUT",
  "error.UNAUTHORIZED",
  "error.MAJOR_UPGRADE_REQUIRED",
  "error.TEMPORARILY_UNAVAILABLE",
  "error.NETWORK_ERROR",
  "error.other",
] as const;

/**
 * Every text of the page, for people (the error table's recovery texts address the chat model, so
 * the page has its own words for the launch outcomes and shows the stable code beside them).
 */
const STRINGS: Record<StartPageLang, Strings> = {
  en: {
    title: "Start SkillPilot Coach",
    heading: "Start a learning session",
    intro: "Start a session here, then continue learning in your chat with SkillPilot Coach.",
    languageNav: "Language",
    nameLabel: "Your name",
    nameHint: "Your progress is kept under this name. The chat never sees it.",
    devNameLabel: "Your name (local development)",
    devNameHint:
      "This server runs for development on this computer, without a sign-in service: the name " +
      "you type is your account, letter for letter. A real server signs you in instead. The " +
      "chat never sees it.",
    signInIntro: "Sign in with your account to start a session. Your progress is kept with it.",
    signIn: "Sign in",
    signOut: "Sign out",
    signInFailed: "The sign-in did not complete. Please try again.",
    signedInAs: "Signed in as {name}",
    localeLabel: "Coaching language",
    keyLabel: "Launch key",
    keyHint: "This server is reachable from the network. Enter the launch key you were given.",
    submit: "Start session",
    submitting: "Starting…",
    readyHeading: "Your session is ready",
    readyNext: "Copy this message and send it in your chat with SkillPilot Coach:",
    chatMessage: "Continue my SkillPilot Coach session: {id}",
    copy: "Copy message",
    copied: "Copied. Paste it into your chat.",
    copyFailed: "Could not copy. Select the message and copy it yourself.",
    expires: "The session is valid until {time}.",
    sessionIdLabel: "Session ID",
    connector: "Not connected yet? Add SkillPilot Coach to your chat app with this server address:",
    warnHeading: "A newer SkillPilot Coach is available",
    warnText:
      "This version will soon stop starting sessions. Switch to the newer version, or start " +
      "one more session here.",
    openSuccessor: "Open the newer version",
    continueHere: "Start here anyway",
    errorHeading: "The session could not be started",
    errorCode: "Error code for support: {code}",
    "error.INVALID_INPUT":
      "Please check your name: it must not be empty and can have at most 200 characters.",
    "error.UNAUTHORIZED": "The launch key is missing or wrong. Ask for the current key.",
    "error.MAJOR_UPGRADE_REQUIRED":
      "This version of SkillPilot Coach no longer starts sessions. Please continue with the " +
      "newer version.",
    "error.TEMPORARILY_UNAVAILABLE":
      "Starting sessions is paused at the moment. Please try again later.",
    "error.NETWORK_ERROR": "The server could not be reached. Check your connection and try again.",
    "error.other": "Something went wrong on our side. Nothing was saved. Please try again shortly.",
  },
  de: {
    title: "SkillPilot Coach starten",
    heading: "Lernsitzung starten",
    intro: "Starte hier eine Sitzung und lerne dann im Chat mit SkillPilot Coach weiter.",
    languageNav: "Sprache",
    nameLabel: "Dein Name",
    nameHint: "Unter diesem Namen wird dein Fortschritt gespeichert. Der Chat sieht ihn nie.",
    devNameLabel: "Dein Name (lokale Entwicklung)",
    devNameHint:
      "Dieser Server läuft zur Entwicklung auf diesem Computer, ohne Anmeldedienst: Der Name, " +
      "den du eingibst, ist dein Konto, Buchstabe für Buchstabe. Ein echter Server meldet dich " +
      "stattdessen an. Der Chat sieht ihn nie.",
    signInIntro:
      "Melde dich mit deinem Konto an, um eine Sitzung zu starten. Dein Fortschritt bleibt dabei.",
    signIn: "Anmelden",
    signOut: "Abmelden",
    signInFailed: "Die Anmeldung wurde nicht abgeschlossen. Bitte versuche es noch einmal.",
    signedInAs: "Angemeldet als {name}",
    localeLabel: "Sprache des Coachings",
    keyLabel: "Startschlüssel",
    keyHint:
      "Dieser Server ist im Netzwerk erreichbar. Gib den Startschlüssel ein, den du bekommen hast.",
    submit: "Sitzung starten",
    submitting: "Wird gestartet…",
    readyHeading: "Deine Sitzung ist bereit",
    readyNext: "Kopiere diese Nachricht und sende sie im Chat mit SkillPilot Coach:",
    chatMessage: "Setze meine SkillPilot-Coach-Sitzung fort: {id}",
    copy: "Nachricht kopieren",
    copied: "Kopiert. Füge sie in deinen Chat ein.",
    copyFailed: "Kopieren ging nicht. Markiere die Nachricht und kopiere sie selbst.",
    expires: "Die Sitzung gilt bis {time}.",
    sessionIdLabel: "Sitzungs-ID",
    connector:
      "Noch nicht verbunden? Füge SkillPilot Coach mit dieser Serveradresse zu deiner Chat-App hinzu:",
    warnHeading: "Ein neuerer SkillPilot Coach ist verfügbar",
    warnText:
      "Diese Version startet bald keine Sitzungen mehr. Wechsle zur neueren Version oder starte " +
      "hier noch eine Sitzung.",
    openSuccessor: "Neuere Version öffnen",
    continueHere: "Trotzdem hier starten",
    errorHeading: "Die Sitzung konnte nicht gestartet werden",
    errorCode: "Fehlercode für den Support: {code}",
    "error.INVALID_INPUT":
      "Bitte prüfe deinen Namen: Er darf nicht leer sein und höchstens 200 Zeichen haben.",
    "error.UNAUTHORIZED":
      "Der Startschlüssel fehlt oder ist falsch. Frag nach dem aktuellen Schlüssel.",
    "error.MAJOR_UPGRADE_REQUIRED":
      "Diese Version von SkillPilot Coach startet keine Sitzungen mehr. Bitte mach mit der " +
      "neueren Version weiter.",
    "error.TEMPORARILY_UNAVAILABLE":
      "Das Starten von Sitzungen ist gerade pausiert. Bitte versuche es später erneut.",
    "error.NETWORK_ERROR":
      "Der Server war nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.",
    "error.other":
      "Bei uns ist etwas schiefgelaufen. Nichts wurde gespeichert. Bitte versuche es gleich noch einmal.",
  },
};

const STYLE = `
:root { color-scheme: light dark;
  --bg: #f4f5f7; --surface: #ffffff; --text: #1b1c1f; --muted: #4f5563; --border: #d5d8de;
  --control: #6b7280; --accent: #0b57d0; --on-accent: #ffffff; --ring: #0b57d0; --code-bg: #f1f3f5;
  --ok-bg: #e9f6ee; --ok-text: #14532d; --ok-border: #3f9d63;
  --warn-bg: #fff6e0; --warn-text: #6b4500; --warn-border: #c08a1e;
  --danger-bg: #fdecec; --danger-text: #8a1c1c; --danger-border: #c25454; }
@media (prefers-color-scheme: dark) { :root {
  --bg: #161719; --surface: #212226; --text: #ececec; --muted: #b4b8c0; --border: #3a3d44;
  --control: #8f949e; --accent: #a8c7fa; --on-accent: #062e6f; --ring: #a8c7fa; --code-bg: #2b2d31;
  --ok-bg: #15291d; --ok-text: #a7e3bd; --ok-border: #3f9d63;
  --warn-bg: #2e2410; --warn-text: #f5d48a; --warn-border: #a57a24;
  --danger-bg: #3b1f1f; --danger-text: #ffb4b4; --danger-border: #b35a5a; } }
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--text); }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text); }
main { max-width: 34rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
header { display: flex; justify-content: space-between; align-items: baseline; gap: 1rem; flex-wrap: wrap; }
.brand { font-weight: 700; letter-spacing: .01em; }
nav ul { list-style: none; display: flex; gap: .75rem; margin: 0; padding: 0; }
nav a { color: var(--accent); }
nav a[aria-current="true"] { color: var(--text); font-weight: 600; text-decoration: none; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 1.5rem 0 .5rem; }
h2 { font-size: 1.2rem; margin: 0 0 .5rem; }
p { margin: 0 0 .75rem; }
.intro, .hint { color: var(--muted); }
.hint { font-size: .9rem; margin: .25rem 0 0; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 12px; padding: 1.25rem; margin-top: 1.25rem; }
.field { margin-bottom: 1rem; }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
input:disabled, select:disabled { color: var(--muted); background: var(--bg); }
.sign-out { margin-top: .75rem; }
#sign-in .panel { margin-bottom: .75rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input, select { font: inherit; width: 100%; padding: .55rem .7rem; border: 1px solid var(--control); border-radius: 8px; background: var(--surface); color: var(--text); }
button, .button { font: inherit; font-weight: 600; display: inline-block; padding: .6rem 1.1rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: var(--on-accent); cursor: pointer; text-decoration: none; }
button.secondary { background: var(--surface); color: var(--text); border-color: var(--control); }
button:disabled { cursor: default; background: var(--surface); color: var(--muted); border: 1px dashed var(--control); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, [tabindex="-1"]:focus-visible { outline: 3px solid var(--ring); outline-offset: 2px; }
[tabindex="-1"]:focus:not(:focus-visible) { outline: none; }
.result { margin-top: 1.25rem; }
.result:empty { display: none; }
.panel { border-radius: 12px; padding: 1.25rem; border: 1px solid; }
.ok { background: var(--ok-bg); border-color: var(--ok-border); }
.ok h2 { color: var(--ok-text); }
.warn { background: var(--warn-bg); border-color: var(--warn-border); }
.warn h2 { color: var(--warn-text); }
.error { background: var(--danger-bg); border-color: var(--danger-border); }
.error h2, .error p { color: var(--danger-text); }
.message { display: block; font: .95rem/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code-bg); color: var(--text); border: 1px solid var(--border); border-radius: 8px; padding: .75rem; margin: .5rem 0 .75rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.small { font-size: .9rem; color: var(--muted); }
.ok .small, .warn .small { color: var(--text); }
.code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;

/** Runs in the browser: posts the form to the launch API and renders the answer (never as JSON). */
const SCRIPT = `
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("start-config").textContent);
  var t = config.strings;
  var form = document.getElementById("launch");
  var submit = document.getElementById("submit");
  var fields = document.getElementById("fields");
  var result = document.getElementById("result");
  var acknowledge = false;
  // One launch at a time, and none after a session is ready: Enter must not start a second one.
  var pending = false;
  var started = false;
  if (!form) return;

  function fill(text, values) {
    return text.replace(/\\{(\\w+)\\}/g, function (_m, k) { return values[k]; });
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function panel(kind, heading, nodes, describedBy) {
    var box = el("section", { "class": "panel " + kind, "aria-labelledby": "result-heading" });
    // Focus moves to the heading, which a screen reader announces once, with what it describes
    // (the result region is not a live region, so nothing is read twice).
    var attrs = { id: "result-heading", tabindex: "-1" };
    if (describedBy) attrs["aria-describedby"] = describedBy;
    box.appendChild(el("h2", attrs, heading));
    nodes.forEach(function (n) { box.appendChild(n); });
    result.replaceChildren(box);
    document.getElementById("result-heading").focus();
  }
  function busy(on) {
    pending = on;
    submit.disabled = on;
    submit.textContent = on ? t.submitting : t.submit;
  }

  function showReady(answer) {
    var message = fill(t.chatMessage, { id: answer.learningSessionId });
    var text = el("p", { "class": "message", id: "chat-message" }, message);
    var copy = el("button", { type: "button", "class": "secondary", id: "copy" }, t.copy);
    var copyStatus = el("span", { "class": "small", role: "status", id: "copy-status" });
    copy.addEventListener("click", function () {
      var done = function () { copyStatus.textContent = t.copied; };
      var failed = function () {
        copyStatus.textContent = t.copyFailed;
        var range = document.createRange();
        range.selectNodeContents(text);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(message).then(done, failed);
      else failed();
    });
    var row = el("div", { "class": "row" });
    row.appendChild(copy);
    row.appendChild(copyStatus);
    var until = new Date(answer.expiresAt);
    var when = isNaN(until.getTime()) ? answer.expiresAt : until.toLocaleString(config.lang, { dateStyle: "medium", timeStyle: "short" });
    var details = el("p", { "class": "small" });
    details.appendChild(document.createTextNode(fill(t.expires, { time: when }) + " " + t.sessionIdLabel + ": "));
    details.appendChild(el("span", { "class": "code", id: "session-id" }, answer.learningSessionId));
    var nodes = [el("p", {}, t.readyNext), text, row, details];
    if (typeof answer.mcpUrl === "string") {
      var connector = el("p", { "class": "small" }, t.connector + " ");
      connector.appendChild(el("span", { "class": "code", id: "mcp-url" }, answer.mcpUrl));
      nodes.push(connector);
    }
    started = true;
    fields.disabled = true;
    submit.disabled = true;
    panel("ok", t.readyHeading, nodes, "chat-message");
  }

  function successorLink(successor) {
    if (!successor || typeof successor.launchUrl !== "string" || !/^https:\\/\\//.test(successor.launchUrl)) return null;
    return el("a", { href: successor.launchUrl, "class": "button", rel: "noopener" }, t.openSuccessor);
  }

  function showAcknowledge(answer) {
    var row = el("div", { "class": "row" });
    var link = successorLink(answer.successor);
    if (link) row.appendChild(link);
    var here = el("button", { type: "button", "class": "secondary", id: "continue-here" }, t.continueHere);
    here.addEventListener("click", function () { acknowledge = true; send(); });
    row.appendChild(here);
    panel("warn", t.warnHeading, [el("p", {}, t.warnText), row]);
  }

  function showError(code, successor) {
    var known = { INVALID_INPUT: 1, UNAUTHORIZED: 1, MAJOR_UPGRADE_REQUIRED: 1, TEMPORARILY_UNAVAILABLE: 1, NETWORK_ERROR: 1 };
    var nodes = [el("p", {}, t[known[code] ? "error." + code : "error.other"])];
    var link = code === "MAJOR_UPGRADE_REQUIRED" && successorLink(successor);
    if (link) nodes.push(link);
    nodes.push(el("p", { "class": "small code", id: "error-code" }, fill(t.errorCode, { code: code })));
    panel("error", t.errorHeading, nodes);
  }

  /** The stable code of a refusal: the error envelope's code, else the HTTP guard's, else the status. */
  function codeOf(status, body) {
    if (body && typeof body.code === "string" && /^[A-Z_]{2,64}$/.test(body.code)) return body.code;
    if (body && typeof body.error === "string" && /^[a-z_]{2,64}$/.test(body.error)) return body.error.toUpperCase();
    return "HTTP_" + status;
  }

  function send() {
    if (pending || started) return;
    var data = new FormData(form);
    var body = { locale: data.get("locale") === "de" ? "de" : "en" };
    if (!config.signedInAs) body.learner = String(data.get("learner") || "");
    if (acknowledge) body.acknowledgeSuccessor = true;
    var headers = { "content-type": "application/json", accept: "application/json" };
    var key = data.get("launchKey");
    if (key) headers.authorization = "Bearer " + key;
    busy(true);
    fetch("/api/sessions", { method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin" })
      .then(function (res) {
        return res.json().then(function (json) { return { status: res.status, body: json }; }, function () { return { status: res.status, body: null }; });
      })
      .then(function (answer) {
        busy(false);
        acknowledge = false;
        var b = answer.body;
        if (answer.status === 201 && b && typeof b.learningSessionId === "string") return showReady(b);
        if (answer.status === 409 && b && b.acknowledgementRequired === true) return showAcknowledge(b);
        showError(codeOf(answer.status, b), b && b.successor);
      }, function () {
        busy(false);
        showError("NETWORK_ERROR");
      });
  }

  var signOut = document.getElementById("sign-out");
  if (signOut)
    signOut.addEventListener("click", function () {
      var home = function () { window.location.assign("/start?lang=" + config.lang); };
      fetch("/start/sign-out", { method: "POST", credentials: "same-origin" }).then(home, home);
    });

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (pending || started) return;
    acknowledge = false;
    send();
  });
})();
`;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/**
 * The page's own policy: only its inline script and style (by hash), requests to its own origin,
 * no framing. The page loads nothing from any other origin.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a <script> element: `<` escaped so no text can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The whole start page for one view; pure (the route picks the view). */
export function renderStartPage(view: StartPageView): string {
  const t = STRINGS[view.lang];
  const other: StartPageLang = view.lang === "en" ? "de" : "en";
  const identity = view.identity ?? "name";
  const option = (value: StartPageLang, label: string) =>
    `<option value="${value}"${value === view.lang ? " selected" : ""}>${label}</option>`;
  const dev = identity === "development";
  const learner = view.signedInAs
    ? `<p class="field" id="signed-in">${escapeHtml(t.signedInAs.replace("{name}", view.signedInAs))}</p>`
    : `<div class="field"><label for="learner">${dev ? t.devNameLabel : t.nameLabel}</label>
<input id="learner" name="learner" required maxlength="200" autocomplete="name" aria-describedby="learner-hint">
<p class="hint" id="learner-hint">${dev ? t.devNameHint : t.nameHint}</p></div>`;
  const launchKey = view.launchKeyRequired
    ? `<div class="field"><label for="launch-key">${t.keyLabel}</label>
<input id="launch-key" name="launchKey" type="password" required autocomplete="off" aria-describedby="launch-key-hint">
<p class="hint" id="launch-key-hint">${t.keyHint}</p></div>`
    : "";
  const config = { lang: view.lang, signedInAs: view.signedInAs ?? null, strings: t };
  const failed = view.signInFailed
    ? `<p class="panel error" role="alert" id="sign-in-failed">${t.signInFailed}</p>`
    : "";
  // With sign-in, the form appears once the learner is signed in; before, the issuer's login.
  const signInCard =
    identity === "signIn" && !view.signedInAs
      ? `<div class="card" id="sign-in">${failed}<p>${t.signInIntro}</p>
<a class="button" id="sign-in-link" href="/start/sign-in?lang=${view.lang}">${t.signIn}</a></div>`
      : "";
  const signOut =
    identity === "signIn" && view.signedInAs
      ? `<p class="sign-out"><button type="button" class="secondary" id="sign-out">${t.signOut}</button></p>`
      : "";
  const launchForm = signInCard
    ? signInCard
    : `<form id="launch" class="card" novalidate>
<fieldset id="fields">
${learner}
<div class="field"><label for="locale">${t.localeLabel}</label>
<select id="locale" name="locale">${option(view.lang, view.lang === "en" ? "English" : "Deutsch")}${option(other, other === "en" ? "English" : "Deutsch")}</select></div>
${launchKey}
</fieldset>
<button id="submit" type="submit">${t.submit}</button>
</form>
${signOut}`;
  return `<!doctype html>
<html lang="${view.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<header><span class="brand">SkillPilot Coach</span>
<nav aria-label="${t.languageNav}"><ul>
<li><a href="?lang=en" hreflang="en" lang="en"${view.lang === "en" ? ' aria-current="true"' : ""}>English</a></li>
<li><a href="?lang=de" hreflang="de" lang="de"${view.lang === "de" ? ' aria-current="true"' : ""}>Deutsch</a></li>
</ul></nav></header>
<h1>${t.heading}</h1>
<p class="intro">${t.intro}</p>
${launchForm}
<div id="result" class="result"></div>
</main>
<script type="application/json" id="start-config">${scriptJson(config)}</script>
<script>${SCRIPT}</script>
</body>
</html>`;
}

/** `?lang=en|de` wins; otherwise the best of en/de in Accept-Language; English by default. */
function pickLang(
  query: unknown,
  acceptsLanguages: (...langs: string[]) => string | false,
): StartPageLang {
  if (query === "en" || query === "de") return query;
  return acceptsLanguages("en", "de") === "de" ? "de" : "en";
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
  identity: NonNullable<StartPageView["identity"]>;
  signedIn?: (ctx: Context) => { name: string } | undefined;
}): Middleware {
  return async (ctx) => {
    const lang = pickLang(ctx.query.lang, (...langs) => ctx.acceptsLanguages(...langs));
    const signedInAs = options.signedIn?.(ctx)?.name;
    ctx.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "no-referrer");
    ctx.set("Cache-Control", "no-store");
    ctx.set("Vary", "Accept-Language, Cookie");
    ctx.set("Content-Language", lang);
    ctx.type = "html";
    ctx.body = renderStartPage({
      lang,
      launchKeyRequired: options.launchKeyRequired && !signedInAs,
      identity: options.identity,
      ...(signedInAs && { signedInAs }),
      ...(ctx.query.signin === "failed" && { signInFailed: true }),
    });
  };
}
