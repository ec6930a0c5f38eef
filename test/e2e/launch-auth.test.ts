import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { secretsFileName } from "../../runtime/secrets.js";
import { startFixture, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";

/**
 * 127.0.0.2 is not one of the loopback host values (127.0.0.1, ::1, localhost), so it stands for
 * "reachable".
 */
const REACHABLE_HOST = "127.0.0.2";
const PLUGIN_MCP_URL = "https://mcp-openai.skillpilot.com/mcp";

async function post(
  fx: RuntimeFixture,
  headers: Record<string, string> = {},
  body: unknown = { learner: "auth-learner", locale: "en" },
) {
  const res = await fetch(`${fx.server.origin}/api/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, unknown>,
  };
}

const sessionCount = async (fx: RuntimeFixture) =>
  Number((await fx.db("sessions").count({ n: "*" }))[0].n);

describe("first-party launch API authentication and the launch answer's mcpUrl (L11, C15)", () => {
  describe("bound to loopback (npm start)", () => {
    let fx: RuntimeFixture;
    before(async () => (fx = await startFixture()));
    after(() => fx?.close());

    it(
      "mints without a secret, and names the bound endpoint whatever Host the " + "request carried",
      async () => {
        const res = await post(fx, { host: `localhost:${fx.server.port}` });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.mcpUrl, fx.server.mcpUrl);
        assert.equal(fx.server.mcpUrl, `http://127.0.0.1:${fx.server.port}/mcp`);
      },
    );
  });

  describe("bound beyond loopback with a configured launch secret", () => {
    const launchSecret = randomBytes(32).toString("base64url");
    let fx: RuntimeFixture;
    before(async () => (fx = await startFixture({ host: REACHABLE_HOST, launchSecret })));
    after(() => fx?.close());

    it(
      "refuses a launch without the bearer secret or with a wrong one (401) and " +
        "writes nothing",
      async () => {
        const before = await sessionCount(fx);
        const wrong: [Record<string, string>, RegExp][] = [
          [{}, /no Authorization header/],
          [{ authorization: `Bearer ${launchSecret}x` }, /bearer token is not the expected one/],
          [{ authorization: launchSecret }, /not of the form `Bearer <token>`/],
          [{ authorization: `Basic ${launchSecret}` }, /not of the form `Bearer <token>`/],
        ];
        for (const [headers, why] of wrong) {
          const res = await post(fx, headers);
          assert.equal(res.status, 401, JSON.stringify(headers));
          assert.equal(res.body.error, "unauthorized");
          assert.match(String(res.headers.get("www-authenticate")), /^Bearer /);
          // The reason says why, in the body and (with a header) in the challenge, never echoing it.
          assert.match(String(res.body.reason), why);
          assert.ok(!JSON.stringify(res.body).includes(launchSecret), "the secret is not echoed");
          const challenge = String(res.headers.get("www-authenticate"));
          if (headers.authorization) assert.match(challenge, /error_description="[^"]+"/);
          else assert.doesNotMatch(challenge, /error=/);
        }
        assert.equal(await sessionCount(fx), before);
      },
    );

    it(
      "mints with the secret and names the plugin's public MCP URL, not the " + "request Host",
      async () => {
        const res = await post(fx, {
          authorization: `Bearer ${launchSecret}`,
          host: `localhost:${fx.server.port}`,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.match(String(res.body.learningSessionId), /^sps_/);
        assert.equal(res.body.mcpUrl, PLUGIN_MCP_URL);
      },
    );

    it(
      "checks the secret before the body: a malformed body without it is 401, " + "not 400",
      async () => {
        assert.equal((await post(fx, {}, { learner: "" })).status, 401);
        assert.equal(
          (await post(fx, { authorization: `Bearer ${launchSecret}` }, { learner: "" })).status,
          400,
        );
      },
    );
  });

  describe("bound beyond loopback without a configured secret", () => {
    let fx: RuntimeFixture;
    before(
      async () =>
        (fx = await startFixture({
          host: REACHABLE_HOST,
          publicUrl: "https://mcp-openai.skillpilot.com/",
        })),
    );
    after(() => fx?.close());

    it(
      "generates the secret into secrets.json (0600) on first start and accepts " +
        "it; mcpUrl follows publicUrl",
      async () => {
        const file = path.join(fx.services.config.dataDir, secretsFileName);
        const secrets = JSON.parse(await readFile(file, "utf8")) as { launchSecret: string };
        assert.ok(secrets.launchSecret.length >= 32);
        assert.equal((await stat(file)).mode & 0o777, 0o600);
        assert.equal((await post(fx)).status, 401);
        const res = await post(fx, { authorization: `Bearer ${secrets.launchSecret}` });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.mcpUrl, "https://mcp-openai.skillpilot.com/mcp");
      },
    );
  });
});
