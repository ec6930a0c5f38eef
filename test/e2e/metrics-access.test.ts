import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { ConfigOverrides } from "../../runtime/config/config.js";
import { startFixture } from "../runtime/support/runtime-fixture.js";

/** GET /metrics of a fixture started with `overrides`, with an optional bearer token. */
async function metricsOf(overrides: ConfigOverrides, tokens: (string | undefined)[]) {
  const fx = await startFixture(overrides);
  try {
    const answers: { status: number; body: string }[] = [];
    for (const token of tokens) {
      // Bound to 0.0.0.0 the server is reachable on loopback too, with a loopback Host.
      const res = await fetch(`http://127.0.0.1:${fx.server.port}/metrics`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      answers.push({ status: res.status, body: await res.text() });
    }
    return answers;
  } finally {
    await fx.close();
  }
}

describe("/metrics is not open to the network (issue #21 item 9; C15, L13)", function () {
  this.timeout(60_000);
  const token = randomBytes(32).toString("base64url");
  const beyond: ConfigOverrides = {
    host: "0.0.0.0",
    publicUrl: "https://mcp-openai.skillpilot.com",
  };

  it("bound beyond loopback without a metrics token: 403, no metric", async () => {
    const [answer] = await metricsOf(beyond, [undefined]);
    assert.equal(answer.status, 403);
    assert.ok(!answer.body.includes("skillpilot_tool_calls_total"));
  });

  it("with a metrics token: only requests carrying it get the metrics", async () => {
    const [none, wrong, right] = await metricsOf({ ...beyond, metricsToken: token }, [
      undefined,
      `${token}x`,
      token,
    ]);
    assert.equal(none.status, 401);
    assert.equal(wrong.status, 401);
    assert.equal(right.status, 200);
    assert.match(right.body, /skillpilot_tool_calls_total|# HELP/);
  });

  it("on loopback without a token: served as before", async () => {
    const [answer] = await metricsOf({}, [undefined]);
    assert.equal(answer.status, 200);
  });
});
