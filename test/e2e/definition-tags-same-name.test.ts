import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { classifyToolChange } from "../../checks/diff/tool-change-class.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { createAjv } from "../../json-schema/ajv.js";
import { STALE_DEFINITION_TAGS_CODE } from "../../runtime/mcp/definition-tags.js";
import type { HeldDefinitionAdapters } from "../../runtime/mcp/held-definitions.js";
import type { CoachClient } from "../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture } from "../runtime/support/runtime-fixture.js";
import type { Wire } from "../support/wire.js";
import { activeGoal } from "./support/active-goal.js";
import { type TaggedProject, taggedProject } from "./support/tagged-project.js";
import {
  callHolding as call,
  footprint,
  refusal,
  STALE_TAGS,
  startTaggedServer,
  type TaggedServer,
} from "./support/tagging-client.js";

const ajv = createAjv({ strict: false });
const valid = (schema: unknown, value: unknown) => ajv.validate(schema as object, value) as boolean;
const GOAL = "complete_skillpilot_goal";
const MEMORY = "start_skillpilot_memory_practice";
const CONTEXT = "get_skillpilot_learning_context";

const current = (
  JSON.parse(await readFile(path.join(repoRoot, projectLayout.snapshotFile), "utf8")) as {
    tools: Wire[];
  }
).tools.map(({ kind: _kind, ...d }) => d as Wire);

/**
 * Release 1.0.0, as hosts approved it before two tools changed incompatibly under their own names:
 * - complete_skillpilot_goal took `decision: "mastered" | "practiceMore"` and answered without
 *   `mastery` (now `"achieved" | "needsMorePractice"`, and `mastery` is required);
 * - start_skillpilot_memory_practice took an optional `deck`, which the closed input of today
 *   refuses (no adapter declared: only calls the current input takes too are served).
 */
const release100 = current.map((tool) => {
  const t = structuredClone(tool);
  if (t.name === GOAL) {
    t.inputSchema.properties.decision = { enum: ["mastered", "practiceMore"] };
    delete t.outputSchema.properties.mastery;
    t.outputSchema.required = t.outputSchema.required.filter((r: string) => r !== "mastery");
  }
  if (t.name === MEMORY) t.inputSchema.properties.deck = { type: "string", maxLength: 40 };
  return t;
});
const held = (name: string) => release100.find((t) => t.name === name)!;

/** The backend's adapter of 1.0.0's complete_skillpilot_goal (its output side can be broken). */
const faults = { breakOutput: false };
const heldDefinitionAdapters: HeldDefinitionAdapters = {
  [GOAL]: {
    "1.0.0": {
      input: (old: Wire) => ({
        ...old,
        decision: old.decision === "mastered" ? "achieved" : "needsMorePractice",
      }),
      output: ({ mastery: _dropped, ...rest }: Wire) =>
        faults.breakOutput ? { ...rest, mastery: _dropped } : rest,
    },
  },
};

describe("definition tags: a tool changed incompatibly under its own name (experimental)", function () {
  this.timeout(60_000);
  let project: TaggedProject;
  let server: TaggedServer;
  let fx: RuntimeFixture;
  let client: Client;
  let helper: CoachClient;
  let tag100: string;
  let tagNow: string;

  before(async () => {
    project = await taggedProject(path.join(repoRoot, projectLayout.snapshotFile), [
      { version: "1.0.0", tools: release100 },
      { version: "1.1.0", tools: current },
    ]);
    server = await startTaggedServer(project, { classifyToolChange, heldDefinitionAdapters });
    ({ fx, client, helper } = server);
    const lane = server.statement.entries.at(-1)!.lanes.find((l) => l.lane === "openai")!;
    tag100 = lane.approved.find((s) => s.version === "1.0.0")!.tag;
    tagNow = lane.served!.tag;
  });
  after(async () => {
    await server?.close();
    await project?.cleanup();
  });

  const completion = (goal: { sid: string; stateVersion: number }, decision: unknown) => ({
    learningSessionId: goal.sid,
    expectedStateVersion: goal.stateVersion,
    clientRequestId: randomUUID(),
    decision,
  });

  it("a host holding 1.0.0 is served 1.0.0's shape through the adapter: its call mapped, its result valid under 1.0.0's output schema, signalled, and the write saved", async () => {
    const goal = await activeGoal(fx, helper, "same-name-honoured");
    const before = await footprint(fx);
    const result = await call(client, GOAL, completion(goal, "mastered"), tag100);
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result._meta[STALE_TAGS], ["tools/list"]);
    const body = result.structuredContent;
    assert.ok(valid(held(GOAL).outputSchema, body), JSON.stringify(ajv.errors));
    assert.equal(body.mastery, undefined, "1.0.0 knew no mastery");
    assert.equal(body.goal.status, "mastered", "1.0.0's mastered was mapped onto achieved");
    const after = await footprint(fx);
    assert.equal(after.receipts, before.receipts + 1);
    assert.equal(after.idempotency, before.idempotency + 1);
    const row = await fx.db("receipts").where({ receipt_id: body.receipt.receiptId }).first();
    assert.ok(row, "the receipt the host was given is in the database");
  });

  it("the current tag and hosts that echo no tag keep today's rules: the current shape is served, 1.0.0's refused as invalid input, nothing written", async () => {
    const goal = await activeGoal(fx, helper, "same-name-current");
    const before = await footprint(fx);
    for (const tags of [undefined, tagNow]) {
      const old = await call(client, GOAL, completion(goal, "mastered"), tags);
      assert.equal(old.isError, true);
      assert.match(old.content[0].text, /^INVALID_INPUT:/);
    }
    assert.deepEqual(await footprint(fx), before, "nothing written");
    const now = await call(client, GOAL, completion(goal, "achieved"), tagNow);
    assert.equal(now.isError, undefined, JSON.stringify(now.content));
    assert.equal(now._meta?.[STALE_TAGS], undefined);
    assert.ok(valid(current.find((t) => t.name === GOAL)!.outputSchema, now.structuredContent));
    assert.equal(typeof now.structuredContent.mastery, "object");
  });

  it("under 1.0.0's tag the current shape is invalid input (the host holds the old one), and a result the adapter maps outside 1.0.0's schema rolls the write back", async () => {
    const goal = await activeGoal(fx, helper, "same-name-refused");
    const before = await footprint(fx);
    const wrongShape = await call(client, GOAL, completion(goal, "achieved"), tag100);
    assert.equal(wrongShape.isError, true);
    assert.match(wrongShape.content[0].text, /^INVALID_INPUT:/);
    faults.breakOutput = true;
    try {
      const broken = await call(client, GOAL, completion(goal, "practiceMore"), tag100);
      assert.equal(broken.isError, true);
      assert.match(broken.content[0].text, /^TEMPORARILY_UNAVAILABLE:/);
    } finally {
      faults.breakOutput = false;
    }
    assert.deepEqual(await footprint(fx), before, "nothing written");
  });

  it("without an adapter a held definition is served only where the current input takes the call too; one it cannot take is refused as stale before any read, writing nothing", async () => {
    const { sid } = await activeGoal(fx, helper, "same-name-no-adapter");
    const served = await call(client, MEMORY, { learningSessionId: sid }, tag100);
    assert.equal(served.isError, undefined, JSON.stringify(served.content));
    assert.deepEqual(served._meta[STALE_TAGS], ["tools/list"]);
    assert.ok(valid(held(MEMORY).outputSchema, served.structuredContent));
    const before = await footprint(fx);
    for (const learningSessionId of [sid, "sps_NoSuchSessionNoSuchSession00"]) {
      const e = await refusal(call(client, MEMORY, { learningSessionId, deck: "verbs" }, tag100));
      assert.equal(e.code, STALE_DEFINITION_TAGS_CODE, e.message);
      assert.deepEqual(e.data, { staleTags: ["tools/list"] });
    }
    const invalid = await call(client, MEMORY, { learningSessionId: sid, deck: 7 }, tag100);
    assert.match(invalid.content[0].text, /^INVALID_INPUT:/, "1.0.0 refuses it too");
    assert.deepEqual(await footprint(fx), before, "nothing written");
  });

  it("a tool unchanged since 1.0.0 is signalled and served as today", async () => {
    const { sid } = await activeGoal(fx, helper, "same-name-unchanged");
    const result = await call(client, CONTEXT, { learningSessionId: sid }, tag100);
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result._meta[STALE_TAGS], ["tools/list"]);
  });

  it("the log names the broken mapping and each stale refusal's reason, never the arguments", async () => {
    const log = await fx.stopAndReadLog();
    assert.match(log, /held definition produced a value its schema refuses/);
    assert.match(log, /the held definition cannot take this call/);
    assert.doesNotMatch(log, /verbs|practiceMore|sps_/);
  });
});
