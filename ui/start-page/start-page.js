// The start page's script (runs in the browser, inline, allowed by its sha256 in the page's CSP):
// posts the form to the launch API and renders the answer for people, never as JSON. Its texts and
// per-request values come from the JSON block `#start-config` the server fills in.
(() => {
  const config = JSON.parse(document.getElementById("start-config").textContent);
  const t = config.strings;
  const form = document.getElementById("launch");
  const submit = document.getElementById("submit");
  const fields = document.getElementById("fields");
  const result = document.getElementById("result");
  let acknowledge = false;
  // One launch at a time, and none after a session is ready: Enter must not start a second one.
  let pending = false;
  let started = false;
  if (!form) return;

  /** The text with its `{name}` placeholders filled in. */
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_m, k) => values[k]);

  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const panel = (kind, heading, nodes, describedBy) => {
    const box = el("section", { class: `panel ${kind}`, "aria-labelledby": "result-heading" });
    // Focus moves to the heading, which a screen reader announces once, with what it describes
    // (the result region is not a live region, so nothing is read twice).
    const attrs = { id: "result-heading", tabindex: "-1" };
    if (describedBy) attrs["aria-describedby"] = describedBy;
    box.appendChild(el("h2", attrs, heading));
    for (const n of nodes) box.appendChild(n);
    result.replaceChildren(box);
    document.getElementById("result-heading").focus();
  };

  const busy = (on) => {
    pending = on;
    submit.disabled = on;
    submit.textContent = on ? t.submitting : t.submit;
  };

  // The ready session is kept for this tab, so a language switch or Back shows it again instead of
  // losing its id (the id is the learner's own; it stays in this browser tab only).
  const READY_KEY = "skillpilot-start-ready";
  const remember = (answer) => {
    try {
      sessionStorage.setItem(READY_KEY, JSON.stringify({ lane: config.lane, answer }));
    } catch {
      // Storage may be off: the panel is then shown once, as before.
    }
  };
  const remembered = () => {
    try {
      const kept = JSON.parse(sessionStorage.getItem(READY_KEY) || "null");
      const answer = kept?.answer;
      if (kept?.lane !== config.lane || typeof answer?.learningSessionId !== "string") return null;
      const until = new Date(answer.expiresAt).getTime();
      return Number.isNaN(until) || until > Date.now() ? answer : null;
    } catch {
      return null;
    }
  };
  const forget = () => {
    try {
      sessionStorage.removeItem(READY_KEY);
    } catch {
      // nothing kept
    }
  };

  const showReady = (answer) => {
    const message = fill(t.chatMessage, { id: answer.learningSessionId });
    const text = el("p", { class: "message", id: "chat-message" }, message);
    const copy = el("button", { type: "button", class: "secondary", id: "copy" }, t.copy);
    const copyStatus = el("span", { class: "small", role: "status", id: "copy-status" });
    copy.addEventListener("click", () => {
      const done = () => {
        copyStatus.textContent = t.copied;
      };
      const failed = () => {
        copyStatus.textContent = t.copyFailed;
        const range = document.createRange();
        range.selectNodeContents(text);
        const selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      };
      if (navigator.clipboard?.writeText) navigator.clipboard.writeText(message).then(done, failed);
      else failed();
    });
    const row = el("div", { class: "row" });
    row.appendChild(copy);
    row.appendChild(copyStatus);
    const until = new Date(answer.expiresAt);
    const when = Number.isNaN(until.getTime())
      ? answer.expiresAt
      : until.toLocaleString(config.lang, { dateStyle: "medium", timeStyle: "short" });
    const details = el("p", { class: "small" });
    details.appendChild(
      document.createTextNode(`${fill(t.expires, { time: when })} ${t.sessionIdLabel}: `),
    );
    details.appendChild(el("span", { class: "code", id: "session-id" }, answer.learningSessionId));
    const nodes = [el("p", {}, t.readyNext), text, row, details];
    if (typeof answer.mcpUrl === "string") {
      const connector = el("p", { class: "small" }, `${t.connector} `);
      connector.appendChild(el("span", { class: "code", id: "mcp-url" }, answer.mcpUrl));
      nodes.push(connector);
    }
    started = true;
    fields.disabled = true;
    submit.disabled = true;
    remember(answer);
    panel("ok", t.readyHeading, nodes, "chat-message");
  };

  const successorLink = (successor) => {
    if (!successor || typeof successor.launchUrl !== "string") return null;
    if (!/^https:\/\//.test(successor.launchUrl)) return null;
    return el(
      "a",
      { href: successor.launchUrl, class: "button", rel: "noopener" },
      t.openSuccessor,
    );
  };

  const showAcknowledge = (answer) => {
    const row = el("div", { class: "row" });
    const link = successorLink(answer.successor);
    if (link) row.appendChild(link);
    const here = el(
      "button",
      { type: "button", class: "secondary", id: "continue-here" },
      t.continueHere,
    );
    here.addEventListener("click", () => {
      acknowledge = true;
      send();
    });
    row.appendChild(here);
    panel("warn", t.warnHeading, [el("p", {}, t.warnText), row]);
  };

  const showError = (code, successor) => {
    // A signed-in page whose sign-in lapsed is refused for a missing name or key it never showed:
    // say what happened and where to sign in again.
    const lapsed = config.signedInAs && (code === "INVALID_INPUT" || code === "UNAUTHORIZED");
    const shown = lapsed ? "SIGN_IN_EXPIRED" : code;
    const text = Object.hasOwn(t, `error.${shown}`) ? t[`error.${shown}`] : t["error.other"];
    const nodes = [el("p", {}, text)];
    if (lapsed) {
      const lane = config.lane === "openai" ? "" : `&lane=${encodeURIComponent(config.lane)}`;
      nodes.push(
        el(
          "a",
          {
            href: `/start/sign-in?lang=${config.lang}${lane}`,
            class: "button",
            id: "sign-in-again",
          },
          t.signIn,
        ),
      );
    }
    const link = code === "MAJOR_UPGRADE_REQUIRED" && successorLink(successor);
    if (link) nodes.push(link);
    nodes.push(
      el("p", { class: "small code", id: "error-code" }, fill(t.errorCode, { code: shown })),
    );
    panel("error", t.errorHeading, nodes);
  };

  /** The stable code of a refusal: the error envelope's code, else the HTTP guard's, else the status. */
  const codeOf = (status, body) => {
    if (typeof body?.code === "string" && /^[A-Z_]{2,64}$/.test(body.code)) return body.code;
    if (typeof body?.error === "string" && /^[a-z_]{2,64}$/.test(body.error))
      return body.error.toUpperCase();
    return `HTTP_${status}`;
  };

  const send = () => {
    if (pending || started) return;
    const data = new FormData(form);
    const body = { locale: String(data.get("locale") || config.lang), lane: config.lane };
    if (!config.signedInAs) body.learner = String(data.get("learner") || "");
    if (acknowledge) body.acknowledgeSuccessor = true;
    const headers = { "content-type": "application/json", accept: "application/json" };
    const key = data.get("launchKey");
    if (key) headers.authorization = `Bearer ${key}`;
    busy(true);
    fetch("/api/sessions", {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "same-origin",
    })
      .then((res) =>
        res.json().then(
          (json) => ({ status: res.status, body: json }),
          () => ({ status: res.status, body: null }),
        ),
      )
      .then(
        (answer) => {
          busy(false);
          acknowledge = false;
          const b = answer.body;
          if (answer.status === 201 && typeof b?.learningSessionId === "string")
            return showReady(b);
          if (answer.status === 409 && b?.acknowledgementRequired === true)
            return showAcknowledge(b);
          showError(codeOf(answer.status, b), b?.successor);
        },
        () => {
          busy(false);
          showError("NETWORK_ERROR");
        },
      );
  };

  const signOut = document.getElementById("sign-out");
  if (signOut)
    signOut.addEventListener("click", () => {
      forget();
      const lane = config.lane === "openai" ? "" : `&lane=${encodeURIComponent(config.lane)}`;
      const query = `?lang=${config.lang}${lane}`;
      const home = () => window.location.assign(`/start${query}`);
      // The server answers where to go: the issuer's logout where it offers one, else back here.
      fetch(`/start/sign-out${query}`, { method: "POST", credentials: "same-origin" })
        .then((res) => (res.ok ? res.json() : {}))
        .then((answer) => {
          const next = answer && typeof answer.next === "string" ? answer.next : "";
          if (/^(https?:\/\/|\/start)/.test(next)) window.location.assign(next);
          else home();
        }, home);
    });

  const kept = remembered();
  if (kept) showReady(kept);

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (pending || started) return;
    acknowledge = false;
    send();
  });
})();
