import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { classifyToolChange } from "../../checks/diff/tool-change-class.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { tagDefinitionSet } from "../../evolution/definition-tags/definition-tag.js";
import { digestMetaKey } from "../../evolution/definition-tags/tool-digest.js";
import type { StatementDocument } from "../../evolution/definition-tags/statement.js";
import { createAjv } from "../../json-schema/ajv.js";
import { checkLiveStatement } from "../../release/verify/live-statement.check.js";
import { coachHandlers } from "../../runtime/domain/handlers/index.js";
import { STALE_DEFINITION_TAGS_CODE } from "../../runtime/mcp/definition-tags.js";
import type { ServeOptions } from "../../runtime/served-contracts.js";
import { connectClient, type CoachClient } from "../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";
import { runCli } from "../support/run-cli.js";
import type { Wire } from "../support/wire.js";
import { activeGoal } from "./support/active-goal.js";
import { type ContractRevision, replacedCompleteGoal } from "./support/contract-revision.js";
import { type TaggedProject, taggedProject } from "./support/tagged-project.js";
import {
  callHolding,
  footprint,
  refusal,
  STALE_TAGS,
  startTaggedServer,
  type TaggedServer,
  taggingClient,
} from "./support/tagging-client.js";

const ajv = createAjv({ strict: false });
const valid = (schema: unknown, value: unknown) => ajv.validate(schema as object, value) as boolean;
const STALE = STALE_TAGS;
const OLD = "complete_skillpilot_goal";
const CONTEXT = "get_skillpilot_learning_context";
const MEMORY = "start_skillpilot_memory_practice";
const GONE = "get_skillpilot_progress_summary";

const published = (
  JSON.parse(await readFile(path.join(repoRoot, projectLayout.snapshotFile), "utf8")) as {
    tools: Wire[];
  }
).tools.map(({ kind: _kind, ...d }) => d as Wire);
const edited = (tools: Wire[], name: string, edit: (t: Wire) => void) =>
  tools.map((t) => {
    if (t.name !== name) return t;
    const copy = structuredClone(t);
    edit(copy);
    return copy;
  });

/** The backend of the revision: the replacement's handler and the old name's adapter. */
const serving = (revision: ContractRevision): ServeOptions => ({
  contract: revision.contract,
  handlers: {
    ...coachHandlers,
    complete_skillpilot_active_goal: (input: Wire, ctx: never) =>
      coachHandlers.complete_skillpilot_goal(
        { ...input, decision: input.decision === "mastered" ? "achieved" : "needsMorePractice" },
        ctx,
      ),
  } as never,
  adapters: {
    [OLD]: {
      input: (input: Wire) => ({
        ...input,
        decision: input.decision === "achieved" ? "mastered" : "practiceMore",
      }),
      output: (output: Wire) => output,
    },
  } as never,
  classifyToolChange,
});

const call = (client: Client, name: string, args: Wire, tags: unknown) =>
  callHolding(client, name, args, tags);

/** A raw 2026-07-28 `server/discover` (no token: it is public), answering its result. */
async function discover(url: string): Promise<Wire> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-method": "server/discover",
      "mcp-protocol-version": "2026-07-28",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "skillpilot-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
  return ((await res.json()) as Wire).result;
}

describe("definition tags on the wire (experimental, SKILLPILOT_DEFINITION_TAGS)", function () {
  this.timeout(60_000);
  let revision: ContractRevision;
  let project: TaggedProject;
  let fx: RuntimeFixture;
  let client: Client;
  let helper: CoachClient;
  let server: TaggedServer;
  let statement: StatementDocument;
  const release100 = edited(published, CONTEXT, (t) => (t.description += " (1.0.0)"));
  const laneEntry = (lane: string) => statement.entries.at(-1)!.lanes.find((l) => l.lane === lane)!;
  const setTag = (version: string, lane = "openai") =>
    laneEntry(lane).approved.find((s) => s.version === version)!.tag;

  before(async () => {
    revision = await replacedCompleteGoal();
    // 1.0.0 retired; 1.1.3 holds the old complete_skillpilot_goal (served through its adapter)
    // and the context tool before its output named the replacement (incompatible, same name);
    // 1.2.0 holds a memory-practice tool whose description changed since (compatible) and a tool
    // this server no longer serves at all.
    const current = revision.descriptors;
    project = await taggedProject(path.join(revision.root, projectLayout.snapshotFile), [
      { version: "1.0.0", retired: true, tools: release100 },
      { version: "1.1.3", tools: published },
      {
        version: "1.2.0",
        tools: [
          ...edited(current, MEMORY, (t) => (t.description = `${t.description} Earlier wording.`)),
          { ...published.find((t) => t.name === CONTEXT)!, name: GONE },
        ].filter((t) => t.name !== OLD),
      },
    ]);
    server = await startTaggedServer(project, serving(revision));
    ({ fx, client, helper, statement } = server);
  });
  after(async () => {
    await server?.close();
    await project?.cleanup();
    await revision?.cleanup();
  });

  it("tools/list carries the lane's tag and each tool's digest under 2026-07-28, as the statement records them, and server/discover a tag of its own; a 2025 listing carries neither", async () => {
    const found = await discover(fx.mcpUrl);
    assert.match(found.tag, /^sha256:[0-9a-f]{64}$/);
    assert.deepEqual(found.supportedVersions, ["2026-07-28"]);
    assert.equal((await discover(fx.mcpUrl)).tag, found.tag, "the same on every request");
    const listed = (await client.listTools()) as Wire;
    assert.equal(listed.tag, laneEntry("openai").served!.tag);
    for (const tool of listed.tools as Wire[])
      assert.equal(tool._meta[digestMetaKey], laneEntry("openai").served!.digests[tool.name]);
    const legacy = await connectClient(fx, "2025 stateless (SDK v1)");
    try {
      const old = (await legacy.listTools()) as Wire;
      assert.equal(old.tag, undefined);
      assert.ok(old.tools.every((t: Wire) => !(digestMetaKey in (t._meta ?? {}))));
    } finally {
      await legacy.close();
    }
  });

  it("the current tag is served as without tags; a tool whose output changed incompatibly under the same name is honoured under a live release's tag: signalled, valid under that release's output schema", async () => {
    const { sid } = await activeGoal(fx, helper, "tags-current");
    const current = await call(
      client,
      CONTEXT,
      { learningSessionId: sid },
      laneEntry("openai").served!.tag,
    );
    assert.equal(current.isError, undefined, JSON.stringify(current.content));
    assert.equal(current._meta?.[STALE], undefined);
    const held = await call(client, CONTEXT, { learningSessionId: sid }, setTag("1.1.3"));
    assert.equal(held.isError, undefined, JSON.stringify(held.content));
    assert.deepEqual(held._meta[STALE], ["tools/list"]);
    const def = published.find((t) => t.name === CONTEXT)!;
    assert.ok(valid(def.outputSchema, held.structuredContent), JSON.stringify(ajv.errors));
  });

  it("a live release's tag on its superseded tool is honoured through the adapter: result valid under that release's output schema, signalled", async () => {
    const goal = await activeGoal(fx, helper, "tags-honour");
    const args = {
      learningSessionId: goal.sid,
      expectedStateVersion: goal.stateVersion,
      clientRequestId: randomUUID(),
      decision: "needsMorePractice",
    };
    const result = await call(client, OLD, args, setTag("1.1.3"));
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result._meta[STALE], ["tools/list"]);
    const def = published.find((t) => t.name === OLD)!;
    assert.ok(valid(def.outputSchema, result.structuredContent), JSON.stringify(ajv.errors));
  });

  it("a live release's compatible change is signalled; a tool it held that is no longer served is refused", async () => {
    const { sid } = await activeGoal(fx, helper, "tags-classes");
    const compatible = await call(client, MEMORY, { learningSessionId: sid }, setTag("1.2.0"));
    assert.deepEqual(compatible._meta[STALE], ["tools/list"], JSON.stringify(compatible));
    const e = await refusal(call(client, GONE, { learningSessionId: sid }, setTag("1.2.0")));
    assert.equal(e.code, STALE_DEFINITION_TAGS_CODE);
    assert.deepEqual(e.data, { staleTags: ["tools/list"] });
  });

  it("a retired release's, a forged and another lane's tag are refused before validation and before any session is read, writing nothing", async () => {
    const goal = await activeGoal(fx, helper, "tags-refused");
    const before = await footprint(fx);
    const write = {
      learningSessionId: goal.sid,
      expectedStateVersion: goal.stateVersion,
      clientRequestId: randomUUID(),
      decision: "needsMorePractice",
    };
    const retired = statement.entries.at(-1)!.retired.map((r) => r.version);
    assert.deepEqual(retired, ["1.0.0"]);
    const bad = [
      tagDefinitionSet("openai", release100).tag,
      `sha256:${"0".repeat(64)}`,
      laneEntry("claude").served!.tag,
      "not even a digest",
    ];
    for (const tag of bad) {
      // Valid arguments, invalid arguments, and a session that does not exist: the tag decides.
      for (const args of [
        write,
        { ...write, decision: 42, extra: true },
        { learningSessionId: "nope" },
      ]) {
        const e = await refusal(call(client, OLD, args, tag));
        assert.equal(e.code, STALE_DEFINITION_TAGS_CODE, `${tag}: ${e.message}`);
        assert.deepEqual(e.data, { staleTags: ["tools/list"] });
      }
    }
    assert.deepEqual(await footprint(fx), before, "nothing written");
  });

  it("bad hints: a tag that is not a string is ignored, 10 000 tags are refused as invalid, naming the cap", async () => {
    const { sid } = await activeGoal(fx, helper, "tags-bad");
    const ignored = await call(client, CONTEXT, { learningSessionId: sid }, { "tools/list": 7 });
    assert.equal(ignored.isError, undefined);
    assert.equal(ignored._meta?.[STALE], undefined);
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`x/${i}`, `sha256:${"1".repeat(64)}`]),
    );
    const e = await refusal(call(client, CONTEXT, { learningSessionId: sid }, many));
    assert.equal(e.code, -32602);
    assert.match(e.message, /more than 16 methods/);
  });

  it("the tags are the same after a restart, on another data directory", async () => {
    const again = await startFixture(
      { ...project.overrides, definitionTags: true } as never,
      serving(revision),
      project.root,
    );
    try {
      const other = await taggingClient(again);
      try {
        assert.equal(((await other.listTools()) as Wire).tag, laneEntry("openai").served!.tag);
        assert.equal((await discover(again.mcpUrl)).tag, (await discover(fx.mcpUrl)).tag);
      } finally {
        await other.close();
      }
    } finally {
      await again.close();
    }
  });

  it("off by default: no tag, no digest, echoed tags ignored, no statement served", async () => {
    const off = await startFixture(project.overrides as never, serving(revision), project.root);
    try {
      const other = await taggingClient(off);
      try {
        const listed = (await other.listTools()) as Wire;
        assert.equal(listed.tag, undefined);
        assert.ok(listed.tools.every((t: Wire) => !(digestMetaKey in (t._meta ?? {}))));
        assert.equal((await discover(off.mcpUrl)).tag, undefined);
        const result = await call(other, CONTEXT, { learningSessionId: "nope" }, "forged");
        assert.equal(result._meta?.[STALE], undefined, "served as without tags");
      } finally {
        await other.close();
      }
      const jws = await fetch(
        `${off.server.origin}/.well-known/skillpilot/approved-definitions.jws`,
      );
      assert.equal(jws.status, 404);
      const absent = await checkLiveStatement(project.root, off.mcpUrl);
      assert.deepEqual(
        absent.map((d) => [d.ruleId, d.severity]),
        [["LIVE_STATEMENT_ABSENT", "warning"]],
      );
    } finally {
      await off.close();
    }
  });

  it("serves the signed statement and its key at their well-known addresses; verify --live proves it is the repository's and approves every lane's listing, and refuses a tampered one", async () => {
    const jws = await fetch(`${fx.server.origin}/.well-known/skillpilot/approved-definitions.jws`);
    assert.equal(jws.status, 200);
    assert.equal(jws.headers.get("content-type"), "application/jose");
    const held = await readFile(
      path.join(project.root, projectLayout.approvedStatementJws),
      "utf8",
    );
    assert.equal(await jws.text(), held.trim());
    const jwk = await fetch(
      `${fx.server.origin}/.well-known/skillpilot/approved-definitions.jwk.json`,
    );
    assert.equal(jwk.status, 200);

    const laneHeaders: Record<string, Record<string, string>> = {};
    for (const lane of fx.services.auth.settings.lanes)
      laneHeaders[lane.id] = {
        authorization: `Bearer ${await fx.token("verify", { audience: lane.resource })}`,
      };
    const ok = await checkLiveStatement(project.root, fx.mcpUrl, { laneHeaders });
    assert.deepEqual(ok, [], JSON.stringify(ok));
    // The same through the CLI as a team runs it: no statement finding on any lane.
    const flags = Object.entries(laneHeaders).flatMap(([lane, h]) => [
      "--lane-header",
      `${lane}=Authorization: ${h.authorization}`,
    ]);
    const verify = (...extra: string[]) =>
      runCli(["-C", project.root, "verify", "--live", fx.mcpUrl, "--format", "json", ...extra], {
        SKILLPILOT_NO_PROGRESS: "1",
      });
    const statementFindings = (run: { stdout: string }) =>
      (JSON.parse(run.stdout).diagnostics as Wire[]).filter((d) =>
        String(d.ruleId).startsWith("LIVE_STATEMENT"),
      );
    const cliOk = await verify(...flags);
    const reached = (JSON.parse(cliOk.stdout).diagnostics as Wire[]).map((d) => d.ruleId);
    assert.ok(
      reached.some((id) => /^LIVE_SERVER_/.test(id)),
      cliOk.stdout + cliOk.stderr,
    );
    assert.deepEqual(statementFindings(cliOk), [], cliOk.stdout + cliOk.stderr);
    // Without a token for the lanes that sign in at connect, those lanes are named as unread.
    const unread = await checkLiveStatement(project.root, fx.mcpUrl);
    assert.deepEqual(unread.map((d) => d.message.split(" ")[0]).sort(), [
      "claude",
      "gemini",
      "mcp",
    ]);

    const file = path.join(project.root, projectLayout.approvedStatementJws);
    const [h, p, s] = held.trim().split(".");
    await writeFile(file, `${h}.${p}.${s.startsWith("A") ? "B" : "A"}${s.slice(1)}\n`);
    try {
      const refused = await checkLiveStatement(project.root, fx.mcpUrl, { laneHeaders });
      assert.equal(refused[0]?.ruleId, "LIVE_STATEMENT_MISMATCH", JSON.stringify(refused));
      assert.match(refused[0].message, /another statement/);
      const cliRefused = await verify(...flags);
      assert.equal(cliRefused.code, 1);
      assert.match(
        statementFindings(cliRefused)[0]?.message ?? cliRefused.stdout,
        /another statement/,
      );
    } finally {
      await writeFile(file, held);
    }
  });
});
