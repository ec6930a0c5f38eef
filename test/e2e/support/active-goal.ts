import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { CoachClient } from "../../runtime/support/mcp-clients.js";
import type { Wire } from "../../support/wire.js";

/**
 * Read the context of a fresh session and take its first option (teaching starts): the session
 * then has an active goal. Returns the state version to write against next.
 */
export async function teachFirstOption(client: CoachClient, sid: string): Promise<number> {
  const ctx = (await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid }))
    .structuredContent as Wire;
  const teach = await client.callTool("choose_skillpilot_option", {
    learningSessionId: sid,
    expectedStateVersion: ctx.stateVersion,
    clientRequestId: randomUUID(),
    option: ctx.options[0].payload,
  });
  assert.equal(teach.isError, undefined, JSON.stringify(teach.content));
  const body = teach.structuredContent as Wire;
  return body.successor?.stateVersion ?? body.stateVersion;
}

/** A new session of `learner` on a server with an active goal: the session and its state version. */
export async function activeGoal(
  fx: { newSession(learner: string): Promise<string> },
  client: CoachClient,
  learner: string,
): Promise<{ sid: string; stateVersion: number }> {
  const sid = await fx.newSession(learner);
  return { sid, stateVersion: await teachFirstOption(client, sid) };
}
