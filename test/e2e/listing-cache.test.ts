import assert from "node:assert/strict";
import { listLiveTools } from "../../checks/diff/live-server.js";
import { loadConfig } from "../../runtime/config/config.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

/** One 2026-07-28 (or 2025-era) request of `method`, answered as JSON. */
async function request(fx: RuntimeFixture, method: string, params: object, era = "2026-07-28") {
  const modern = era === "2026-07-28";
  const res = await fetch(fx.server.mcpUrl, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": era,
      ...(modern && { "mcp-method": method }),
      ...(modern && "uri" in params && { "mcp-name": String(params.uri) }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        ...(modern && {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": era,
            "io.modelcontextprotocol/clientInfo": { name: "cache-test", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        }),
      },
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  // A 2025-era answer may come as one server-sent event.
  const text = await res.text();
  const json = text.startsWith("event:") ? /^data: (.*)$/m.exec(text)![1] : text;
  return (JSON.parse(json) as { result: Record<string, unknown> }).result;
}

describe("cacheable listings: the public contract's list results carry cache hints under 2026-07-28", function () {
  this.timeout(60_000);
  let fx: RuntimeFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it("tools/list, resources/list, resources/templates/list and resources/read are public for 5 minutes by default; 2025-era answers carry no cache fields", async () => {
    fx = await startFixture();
    for (const method of ["tools/list", "resources/list", "resources/templates/list"]) {
      const result = await request(fx, method, {});
      assert.equal(result.ttlMs, 300_000, method);
      assert.equal(result.cacheScope, "public", method);
    }
    const [page] = (await request(fx, "resources/list", {})).resources as { uri: string }[];
    const read = await request(fx, "resources/read", { uri: page.uri });
    assert.equal(read.ttlMs, 300_000);
    assert.equal(read.cacheScope, "public");
    const legacy = await request(fx, "tools/list", {}, "2025-11-25");
    assert.ok(Array.isArray(legacy.tools));
    assert.equal(legacy.ttlMs, undefined);
    assert.equal(legacy.cacheScope, undefined);
  });

  it("the official client's listing (what diff --against URL reads) carries the hint on 2026-07-28 and none on the 2025 era", async () => {
    fx = await startFixture();
    const modern = await listLiveTools(fx.server.mcpUrl, { era: "modern" });
    assert.equal(modern.ttlMs, 300_000);
    assert.equal(modern.cacheScope, "public");
    const legacy = await listLiveTools(fx.server.mcpUrl, { era: "legacy" });
    assert.equal(legacy.ttlMs, undefined);
  });

  it("follows the configured listingCache (0 and private turn caching off)", async () => {
    fx = await startFixture({ listingCache: { ttlMs: 0, scope: "private" } });
    const result = await request(fx, "tools/list", {});
    assert.equal(result.ttlMs, 0);
    assert.equal(result.cacheScope, "private");
  });

  it("SKILLPILOT_LISTING_TTL_MS sets the time; a value that is not a whole number of ms is refused at start", async () => {
    const set = await loadConfig(repoRoot, {}, { SKILLPILOT_LISTING_TTL_MS: "60000" });
    assert.deepEqual(set.listingCache, { ttlMs: 60_000, scope: "public" });
    await assert.rejects(
      loadConfig(repoRoot, {}, { SKILLPILOT_LISTING_TTL_MS: "5m" }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "CONFIG_INVALID");
        assert.match(error.message, /SKILLPILOT_LISTING_TTL_MS/);
        return true;
      },
    );
  });
});
