/**
 * Capability cost (issue #4, C11). Prints, from one run, the per-operation cost of
 *  - minting a capability, opening it (decrypt → complete → not stale), and the full
 *    mint + verify round trip with an in-memory replay store,
 * as ratios against two baselines measured in the same run on the same claims:
 *  - one bare `createHash("sha256")` of the claims JSON,
 *  - one precompiled ajv validator call (the `record_skillpilot_verified_recall_results`
 *    input, which carries a grading capability).
 * Context: a Verified Recall round (three calls) must stay ≤ 4× one echo call; a mint+verify
 * is a small part of one call.
 * Run: npm run bench:capability
 */
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { validateRecordSkillpilotVerifiedRecallResultsInput } from "../../generated/validators.gen.js";
import {
  generateKeyringConfig,
  keyringFromConfig,
  MemoryReplayStore,
  mintCapability,
  openCapability,
  verifyCapability,
  type Expectation,
  type MintRequest,
} from "../../runtime/capability/index.js";

const ITERATIONS = 20_000;
const ROUNDS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median nanoseconds per call of a synchronous `op` over ROUNDS rounds (after a warm-up). */
function nsPerOp(op: (i: number) => unknown): number {
  for (let i = 0; i < 2_000; i++) op(i);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < ITERATIONS; i++) op(i);
    rounds.push(((performance.now() - t0) * 1e6) / ITERATIONS);
  }
  return median(rounds);
}

/** The same for an asynchronous `op`, awaited one call at a time like a request would be. */
async function nsPerAsyncOp(op: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 2_000; i++) await op(i);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < ITERATIONS; i++) await op(i);
    rounds.push(((performance.now() - t0) * 1e6) / ITERATIONS);
  }
  return median(rounds);
}

const keyring = keyringFromConfig(generateKeyringConfig("bench"));
const learningSessionId = "sps_benchbenchbenchbenchbench";
const now = new Date("2026-11-30T10:00:00Z");
const request: MintRequest = {
  purpose: "grading",
  learningSessionId,
  policyRevision: 3,
  expiresAt: new Date(now.getTime() + 3_600_000),
  batchId: "batch-0001",
};
const expectation: Expectation = {
  purpose: "grading",
  learningSessionId,
  policyRevision: 3,
  now,
  batchId: "batch-0001",
};
const token = mintCapability(keyring, request);
const claimsJson = JSON.stringify(openCapability(keyring, token, expectation));
const input = {
  learningSessionId,
  gradingCapability: token,
  assessments: [{ passed: true }, { passed: false }, { passed: true }],
};
if (!validateRecordSkillpilotVerifiedRecallResultsInput(input))
  throw new Error("bench input is not valid");

const store = new MemoryReplayStore();
const results = {
  sha256: nsPerOp(() => createHash("sha256").update(claimsJson).digest()),
  ajv: nsPerOp(() => validateRecordSkillpilotVerifiedRecallResultsInput(input)),
  mint: nsPerOp(() => mintCapability(keyring, request)),
  open: nsPerOp(() => openCapability(keyring, token, expectation)),
  mintVerify: await nsPerAsyncOp((i) =>
    verifyCapability(keyring, mintCapability(keyring, request), expectation, {
      store,
      use: String(i),
    }),
  ),
};

const fmt = (ns: number) => `${(ns / 1000).toFixed(2).padStart(8)} µs`;
const ratio = (ns: number, base: number) => `${(ns / base).toFixed(1).padStart(6)}×`;
console.log(
  `capability bench — claims ${claimsJson.length} B, token ${token.length} ` +
    `chars, ${ROUNDS}×${ITERATIONS} calls, median`,
);
console.log(
  "operation".padEnd(28) +
    "per call".padStart(11) +
    "vs sha256".padStart(11) +
    "vs ajv".padStart(9),
);
for (const [name, ns] of Object.entries(results))
  console.log(
    name.padEnd(28) +
      fmt(ns) +
      ratio(ns, results.sha256).padStart(11) +
      ratio(ns, results.ajv).padStart(9),
  );
console.log(
  `mint+verify = ${(results.mintVerify / results.sha256).toFixed(1)}× one sha256, ` +
    `${(results.mintVerify / results.ajv).toFixed(1)}× one ajv validation ` +
    `(replay store held ${store.size} ids)`,
);
