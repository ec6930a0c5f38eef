/**
 * The soak's traffic: what one client does next, call by call, drawn by weight from a seeded
 * generator (the same mix every run). Per unit drawn:
 *   42 % get_skillpilot_learning_context of one of the client's learners (a read),
 *   28 % complete_skillpilot_goal (needsMorePractice: a new durable write at the version the
 *        previous one returned; each learner belongs to one client, so writes never race),
 *   10 % a Verified Recall round (start → answers → record: three calls, two commits) on a seeded
 *        learner whose recall is due,
 *   18 % tools/list,
 *    2 % a call the server must refuse, in turn: a write at a stale state version
 *        (STATE_CONFLICT), arguments the tool's schema rejects, a tool that does not exist.
 * By calls that is about 35 % reads, 23 % writes, 25 % recall, 15 % lists and 2 % refusals.
 */
import { randomUUID } from "node:crypto";
import type { Call } from "../runtime/load-driver.js";
import { type ActiveLearner, completeCalls, contextCalls } from "../runtime/coach-learners.js";
import type { RawMcpCaller } from "../runtime/raw-mcp-client.js";
import { recallRounds } from "../runtime/recall-round.js";
import { answerCode } from "./soak-log.js";

/** Unit weights, in the order `pick` draws them. */
const WEIGHTS = { context: 0.42, complete: 0.28, recall: 0.1, list: 0.18, refused: 0.02 };
type Unit = keyof typeof WEIGHTS;
const UNITS = Object.keys(WEIGHTS) as Unit[];

/** A small seeded generator (mulberry32): the same draws every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The refusals, in turn: each resolves whether the server refused as it must. */
function refusals(caller: RawMcpCaller) {
  const stale = async (s: ActiveLearner) =>
    answerCode(
      await caller.send("complete_skillpilot_goal", {
        learningSessionId: s.id,
        expectedStateVersion: s.version - 1,
        clientRequestId: randomUUID(),
        decision: "needsMorePractice",
      }),
    ) === "STATE_CONFLICT";
  const invalid = async (s: ActiveLearner) => {
    const code = answerCode(
      await caller.send("get_skillpilot_learning_context", {
        learningSessionId: s.id,
        unexpected: true,
      }),
    );
    return code !== "OK" && code !== "INTERNAL_ERROR" && !code.startsWith("HTTP_");
  };
  const unknown = async (s: ActiveLearner) =>
    answerCode(await caller.send("no_such_skillpilot_tool", { learningSessionId: s.id })) ===
    "RPC_-32602";
  const kinds = [stale, invalid, unknown];
  let next = 0;
  return (s: ActiveLearner) => kinds[next++ % kinds.length](s);
}

/**
 * Client `client`'s mixed traffic on its own `learners`: one unit per call of the returned Call
 * (resolves whether every answer was what the unit expects). `nextRecall` gives the learner of
 * each Verified Recall round; `listToken` is the token tools/list is sent with.
 */
export function mixedTraffic(
  client: number,
  caller: RawMcpCaller,
  learners: readonly ActiveLearner[],
  nextRecall: () => string | Promise<string>,
  listToken: string | undefined,
): Call {
  const random = seeded(0x5eed + client);
  const reads = contextCalls([caller], learners);
  const writes = completeCalls([caller], learners);
  const round = recallRounds(caller, nextRecall);
  const refuse = refusals(caller);
  const pick = (): Unit => {
    const r = random();
    let upTo = 0;
    for (const unit of UNITS) {
      upTo += WEIGHTS[unit];
      if (r < upTo) return unit;
    }
    return "context";
  };
  return async () => {
    const unit = pick();
    const i = Math.floor(random() * learners.length);
    switch (unit) {
      case "context":
        return reads[i]();
      case "complete":
        return writes[i]();
      case "recall":
        return round();
      case "list": {
        const answer = await caller.listTools(listToken);
        return (answer.message?.result?.tools?.length ?? 0) > 0;
      }
      case "refused":
        return refuse(learners[i]);
    }
  };
}
