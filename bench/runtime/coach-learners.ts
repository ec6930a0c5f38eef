import { randomUUID } from "node:crypto";
import type { RawMcpCaller } from "./raw-mcp-client.js";

/** A learner of a benchmark: their session and the state version last seen. */
export interface ActiveLearner {
  id: string;
  version: number;
}

/**
 * Launch one learner per name (POST /api/sessions on `origin`), bind each session to its learner's
 * token (`bind`), and make its goal active: read the context, then choose the first option.
 */
export async function activeLearners(
  origin: string,
  caller: RawMcpCaller,
  names: readonly string[],
  bind: (sessionId: string, learner: string) => Promise<void>,
  /** The provider lane the sessions are launched for (the caller's); default the openai lane. */
  lane?: string,
): Promise<ActiveLearner[]> {
  return Promise.all(
    names.map(async (learner) => {
      const res = await fetch(`${origin}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ learner, locale: "en", ...(lane && { lane }) }),
      });
      const body = (await res.json()) as { learningSessionId?: string };
      if (res.status !== 201 || !body.learningSessionId)
        throw new Error(`bench launch failed: ${res.status} ${JSON.stringify(body)}`);
      const id = body.learningSessionId;
      await bind(id, learner);
      const ctx = (await caller.call("get_skillpilot_learning_context", { learningSessionId: id }))
        .structuredContent as { stateVersion: number; options: { payload: string }[] };
      const chosen = await caller.call("choose_skillpilot_option", {
        learningSessionId: id,
        expectedStateVersion: ctx.stateVersion,
        clientRequestId: randomUUID(),
        option: ctx.options[0].payload,
      });
      if (chosen.isError) throw new Error(`bench choose failed: ${JSON.stringify(chosen)}`);
      return { id, version: (chosen.structuredContent as { stateVersion: number }).stateVersion };
    }),
  );
}

/**
 * Each client's context read, on its own learner; client i calls `callers[i % callers.length]`
 * (several callers: one per server instance behind a balancer).
 */
export function contextCalls(callers: readonly RawMcpCaller[], learners: readonly ActiveLearner[]) {
  return learners.map(
    (s, i) => async () =>
      !(
        await callers[i % callers.length].call("get_skillpilot_learning_context", {
          learningSessionId: s.id,
        })
      ).isError,
  );
}

/**
 * Each client's goal completion with `needsMorePractice`, which keeps the goal active: every call
 * is a new, durable write at the version the previous one returned.
 */
export function completeCalls(
  callers: readonly RawMcpCaller[],
  learners: readonly ActiveLearner[],
) {
  return learners.map((s, i) => async () => {
    const r = await callers[i % callers.length].call("complete_skillpilot_goal", {
      learningSessionId: s.id,
      expectedStateVersion: s.version,
      clientRequestId: randomUUID(),
      decision: "needsMorePractice",
    });
    if (r.isError) return false;
    s.version = (r.structuredContent as { receipt: { stateVersion: number } }).receipt.stateVersion;
    return true;
  });
}
