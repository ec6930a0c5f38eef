import type { Pools } from "../../e2e/support/tool-arguments.js";
import { messagesOf } from "./ingress-oracles.js";
import type { Answer } from "./ingress-target.js";

/** How many values of each name are kept (the newest). */
const KEEP = 24;

/** Where a value found in an answer goes: the argument name it can be sent back as. */
const argumentName: Record<string, string> = {
  learningSessionId: "learningSessionId",
  stateVersion: "expectedStateVersion",
  batchCapability: "batchCapability",
  gradingCapability: "gradingCapability",
  assessmentCapability: "assessmentCapability",
  practiceCapability: "practiceCapability",
  goalId: "goalId",
  payload: "option",
};

/**
 * Values the server handed out in an answer (state versions, option payloads, capabilities, goal
 * ids of successful results and their `_meta`), added to `pools` so that later requests can send
 * them back, as a host copies them: writes then chain (a choice, then the goal completed at the
 * new state version, then recall). Answers true when a pool changed.
 */
export function harvest(answer: Answer, pools: Pools): boolean {
  if (!("status" in answer) || answer.status !== 200) return false;
  let changed = false;
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8 || typeof value !== "object" || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      const name = argumentName[key];
      if (name !== undefined && item !== undefined && item !== null) {
        const pool = pools[name] ?? [];
        const text = JSON.stringify(item);
        if (!pool.some((v) => JSON.stringify(v) === text)) {
          pools[name] = [...pool, item].slice(-KEEP);
          changed = true;
        }
      }
      walk(item, depth + 1);
    }
  };
  for (const message of messagesOf(answer)) {
    const result = message.result as { isError?: boolean; structuredContent?: unknown } | undefined;
    if (!result || result.isError) continue;
    walk(result.structuredContent, 0);
    walk((result as { _meta?: unknown })._meta, 0);
  }
  return changed;
}
