import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { ToolResult } from "../../../runtime/support/mcp-clients.js";
import type { WireObject } from "../../../support/wire.js";

/** A host as the scripted conversations drive it: tool calls and learner messages. */
export interface Host {
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** A new learner message (the recording proxy's turn mark). */
  learnerMessage(): Promise<void>;
}

/** What a conversation may do beside the host: the server's clock, another device's write. */
export interface Surroundings {
  sid: string;
  advanceDays(days: number): void;
  /** A write by another device of the same learner (not through the host). */
  elsewhere(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export type Out = WireObject;

/** Call and insist on success; returns structuredContent. */
export async function ok(host: Host, name: string, args: Record<string, unknown>): Promise<Out> {
  const result = await host.call(name, args);
  assert.notEqual(result.isError, true, `${name}: ${JSON.stringify(result)}`);
  return result.structuredContent as Out;
}

const read = (host: Host, sid: string) =>
  ok(host, "get_skillpilot_learning_context", { learningSessionId: sid });

const write = (ctx: Out) => ({
  learningSessionId: ctx.learningSessionId,
  expectedStateVersion: ctx.stateVersion,
  clientRequestId: randomUUID(),
});

/** One turn: the learner's message, the one fresh context read, then what `act` decides. */
async function turn(host: Host, sid: string, act: (ctx: Out) => Promise<unknown>): Promise<void> {
  await host.learnerMessage();
  await act(await read(host, sid));
}

/**
 * The conversation a well-behaved host holds (G10): full coach turns (a choice, a completed goal),
 * a Verified Recall round over three turns whose terminal write's continuation is followed at
 * once, and a conflict (another device wrote meanwhile) answered by one reload and a re-decided
 * write. Every turn starts with exactly one context read.
 */
export async function wellBehavedConversation(host: Host, env: Surroundings): Promise<void> {
  const { sid } = env;
  await turn(host, sid, (ctx) =>
    ok(host, "choose_skillpilot_option", { ...write(ctx), option: ctx.options[0].payload }),
  );
  await turn(host, sid, (ctx) =>
    ok(host, "complete_skillpilot_goal", { ...write(ctx), decision: "achieved" }),
  );
  env.advanceDays(2);
  await turn(host, sid, async (ctx) => {
    const done = await ok(host, "complete_skillpilot_goal", {
      ...write(ctx),
      decision: "achieved",
    });
    assert.equal(done.successor.requiredAction, "offerVerifiedRecall");
  });
  // Verified Recall: consent and start; the learner answers in chat; consent to save.
  let batch: Out | undefined;
  await turn(host, sid, async () => {
    batch = await ok(host, "start_skillpilot_verified_recall", { learningSessionId: sid });
  });
  let grading: Out | undefined;
  await turn(host, sid, async () => {
    grading = await ok(host, "get_skillpilot_verified_recall_answers", {
      learningSessionId: sid,
      batchCapability: batch?.batchCapability,
    });
  });
  await turn(host, sid, async () => {
    const recorded = await ok(host, "record_skillpilot_verified_recall_results", {
      learningSessionId: sid,
      gradingCapability: grading?.gradingCapability,
      assessments: batch?.batch.items.map(() => ({ passed: true })),
    });
    const { toolCall } = recorded.continuation;
    await ok(host, toolCall.name, { ...toolCall.arguments, learningSessionId: sid });
  });
  // A conflict: another device completes a practice attempt between the read and the write.
  await turn(host, sid, async (ctx) => {
    await env.elsewhere("complete_skillpilot_goal", {
      ...write(ctx),
      decision: "needsMorePractice",
    });
    const stale = await host.call("complete_skillpilot_goal", {
      ...write(ctx),
      decision: "achieved",
    });
    assert.match(stale.content[0]?.text ?? "", /^STATE_CONFLICT:/);
    const fresh = await read(host, sid);
    await ok(host, "complete_skillpilot_goal", { ...write(fresh), decision: "achieved" });
  });
}
