import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { projectLayout } from "../../../contract-model/project/project-layout.js";
import type { StatementDocument } from "../../../evolution/definition-tags/statement.js";
import type { ServeOptions } from "../../../runtime/served-contracts.js";
import { connectClient, type CoachClient } from "../../runtime/support/mcp-clients.js";
import { type RuntimeFixture, startFixture } from "../../runtime/support/runtime-fixture.js";
import type { TaggedProject } from "./tagged-project.js";
import type { Wire } from "../../support/wire.js";

/** The request `_meta` member naming the definition tags a client holds. */
const KNOWN_TAGS = "io.modelcontextprotocol/knownTags";
/** The result `_meta` member naming the tags the server found stale. */
export const STALE_TAGS = "io.modelcontextprotocol/staleTags";

/** The official client (SDK v2, 2026-07-28), each call with the token of its session's learner. */
export async function taggingClient(fx: RuntimeFixture, url = fx.mcpUrl): Promise<Client> {
  const client = new Client(
    { name: "skillpilot-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const fetchWithToken: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as Wire) : undefined;
    const sid = body?.params?.arguments?.learningSessionId;
    headers.set(
      "authorization",
      `Bearer ${await fx.token((typeof sid === "string" && fx.learnerOf.get(sid)) || "tags")}`,
    );
    return fetch(input, { ...init, headers });
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWithToken }));
  return client;
}

/** A `tools/call` holding `tags` (a `tools/list` tag, the whole knownTags value, or none). */
export const callHolding = (client: Client, name: string, args: Wire, tags?: unknown) =>
  client.callTool({
    name,
    arguments: args,
    ...(tags !== undefined && {
      _meta: {
        [KNOWN_TAGS]: typeof tags === "string" ? { "tools/list": tags } : tags,
      },
    }),
  } as never) as Promise<Wire>;

/** The error a call was refused with (fails when it was served). */
export const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail("the call was served"),
    (e: { code?: number; data?: Wire; message: string }) => e,
  );

/** What a write leaves in the database: receipts, idempotency records, the sum of state versions. */
export const footprint = async (fx: RuntimeFixture) => ({
  receipts: Number((await fx.db("receipts").count({ n: "*" }))[0].n),
  idempotency: Number((await fx.db("idempotency_records").count({ n: "*" }))[0].n),
  versions: Number((await fx.db("learner_state").sum({ v: "state_version" }))[0].v ?? 0),
});

/** A server with definition tags on for a tagged project, its two clients, and the statement. */
export interface TaggedServer {
  fx: RuntimeFixture;
  /** The official client sending knownTags. */
  client: Client;
  /** A plain 2026-07-28 client, for the steps that set up a session. */
  helper: CoachClient;
  statement: StatementDocument;
  close(): Promise<void>;
}

/** Start a server with definition tags on for `project`, serving with `serving`. */
export async function startTaggedServer(
  project: TaggedProject,
  serving: ServeOptions,
): Promise<TaggedServer> {
  const statement = JSON.parse(
    await readFile(path.join(project.root, projectLayout.approvedStatement), "utf8"),
  ) as StatementDocument;
  const fx = await startFixture(
    { ...project.overrides, definitionTags: true } as never,
    serving,
    project.root,
  );
  const client = await taggingClient(fx);
  const helper = await connectClient(fx, "2026-07-28 (SDK v2)");
  return {
    fx,
    client,
    helper,
    statement,
    async close() {
      await client.close();
      await helper.close();
      await fx.close();
    },
  };
}
