import assert from "node:assert/strict";
import { startCluster, type ServerCluster } from "../runtime/support/server-cluster.js";
import {
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "../runtime/support/throwaway-postgres.js";
import type { Wire } from "../support/wire.js";

const DIGEST = "io.modelcontextprotocol/digest";

/** One 2026-07-28 request without a token (the openai lane lists without one). */
async function request(url: string, method: string): Promise<Wire> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-method": method,
      "mcp-protocol-version": "2026-07-28",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "skillpilot-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  assert.equal(res.status, 200, `${method} on ${url}`);
  return ((await res.json()) as Wire).result;
}

// Issue #34 item 1: one tag per served definition set, identical on every instance. Tags are
// computed from the contract at start, never from the database: two compiled servers on one
// PostgreSQL database (the scale-out deployment) must serve the very same tag and digests.
describe("definition tags on two instances sharing one PostgreSQL database (issue #34)", function () {
  this.timeout(120_000);
  let pg: ThrowawayPostgres | undefined;
  let cluster: ServerCluster | undefined;

  before(async function () {
    pg = await startThrowawayPostgres();
    if (!pg) this.skip(); // PostgreSQL is not installed on this machine
    cluster = await startCluster(pg.url, 2, () => ({ definitionTags: true }));
  });
  after(async () => {
    try {
      await cluster?.close();
    } finally {
      await pg?.stop();
    }
  });

  it("tools/list and server/discover carry the same tags and digests on both instances", async () => {
    const [a, b] = cluster!.urls;
    const [listA, listB] = await Promise.all([request(a, "tools/list"), request(b, "tools/list")]);
    assert.match(String(listA.tag), /^sha256:[0-9a-f]{64}$/, "a tag is served");
    assert.equal(listB.tag, listA.tag);
    const digests = (list: Wire) =>
      (list.tools as Wire[]).map((t) => [t.name, t._meta?.[DIGEST]] as const);
    assert.ok(
      digests(listA).every(([, d]) => typeof d === "string"),
      "every tool has a digest",
    );
    assert.deepEqual(digests(listB), digests(listA));
    const [discoverA, discoverB] = await Promise.all([
      request(a, "server/discover"),
      request(b, "server/discover"),
    ]);
    assert.match(String(discoverA.tag), /^sha256:[0-9a-f]{64}$/);
    assert.equal(discoverB.tag, discoverA.tag);
  });
});
