import type { Middleware } from "koa";

/**
 * `GET /start`: the minimal first-party start page every session error points to. It posts to
 * `/api/sessions` and shows the session id to paste into the chat client. The launch key is needed
 * only when the server is reachable beyond loopback; it is sent as a bearer token, never in the
 * body.
 */
export function startPage(): Middleware {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SkillPilot Coach – start a session</title></head>
<body>
<h1>Start a SkillPilot Coach session</h1>
<form id="f"><label>Name <input name="learner" required maxlength="200"></label>
<label>Language <select name="locale">
  <option value="en">English</option><option value="de">Deutsch</option>
</select></label>
<label>Launch key (remote servers only)
  <input name="launchKey" type="password" autocomplete="off"></label>
<button>Start</button></form>
<pre id="out"></pre>
<script>
document.getElementById("f").addEventListener("submit", async (e) => {
  e.preventDefault();
  const { launchKey, ...data } = Object.fromEntries(new FormData(e.target));
  const headers = { "content-type": "application/json" };
  if (launchKey) headers.authorization = "Bearer " + launchKey;
  const res = await fetch("/api/sessions", { method: "POST", headers, body: JSON.stringify(data) });
  document.getElementById("out").textContent = JSON.stringify(await res.json(), null, 2);
});
</script>
</body></html>`;
  return async (ctx) => {
    ctx.type = "html";
    ctx.body = html;
  };
}
