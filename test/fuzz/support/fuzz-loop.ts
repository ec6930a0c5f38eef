import { harvest } from "./answer-harvest.js";
import type { BlockCoverage } from "./block-coverage.js";
import { ArgumentSource, freshInput, type IngressInput } from "./ingress-input.js";
import { mutate, type MutationSources } from "./ingress-mutators.js";
import { judge, type Violation } from "./ingress-oracles.js";
import type { IngressTarget } from "./ingress-target.js";
import { Rng } from "./rng.js";

/** How one fuzz run goes. */
export interface FuzzOptions {
  seed: number;
  /** At most this many requests. */
  iterations: number;
  /** And at most this long (milliseconds). */
  timeLimitMs: number;
  /**
   * `guided`: inputs that reach new blocks are kept and mutated further; `random`: the baseline,
   * every input fresh (generated, half of them mutated), nothing kept. Both send back values the
   * server handed out (`harvest`).
   */
  mode: "guided" | "random";
  /** Stop at the first violation (the planted-defect check). */
  stopAtFirst?: boolean;
}

/** A violation and the request that showed it (no token: only the credential kind). */
export interface Finding extends Violation {
  iteration: number;
  request: {
    path: string;
    method: string;
    headers: Record<string, string>;
    auth: string;
    body: string;
  };
}

/** What a run did. */
export interface FuzzReport {
  mode: FuzzOptions["mode"];
  seed: number;
  iterations: number;
  elapsedMs: number;
  /** Distinct blocks of the measured folder the run's requests reached. */
  blocks: number;
  /** Covered blocks by file under the measured folder. */
  byFile: Record<string, number>;
  /** Inputs kept (guided only). */
  corpus: number;
  /** The first finding of each signature. */
  findings: Finding[];
}

const shown = (input: IngressInput): Finding["request"] => ({
  ...input,
  body:
    input.body.length > 2000
      ? `${input.body.slice(0, 2000)}… (${input.body.length} chars)`
      : input.body,
});

/**
 * One fuzz run against `target`, measured with `coverage` (started; its blocks are cleared here).
 * Every request is judged by both oracles; the coverage after it decides whether it is kept.
 */
export async function fuzzIngress(
  target: IngressTarget,
  coverage: BlockCoverage,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const rng = new Rng(options.seed);
  const args = new ArgumentSource(target.pools.args);
  const corpus: IngressInput[] = [];
  /** The blocks each kept input reached. */
  const reachedBy: string[][] = [];
  /** How many requests reached each block so far. */
  const hits = new Map<string, number>();
  /**
   * A kept input, by rarity: its weight is the sum of 1/(requests that reached it) over its
   * blocks, so inputs that reach what few others reach (deep handler paths, rare refusals) are
   * mutated more often than the many that end at the same early refusal.
   */
  const rare = (): IngressInput => {
    const weights = reachedBy.map((blocks) =>
      blocks.reduce((sum, b) => sum + 1 / (hits.get(b) ?? 1), 0),
    );
    let at = (rng.next() / 0x1_0000_0000) * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < corpus.length; i++) {
      at -= weights[i];
      if (at < 0) return corpus[i];
    }
    return corpus[corpus.length - 1];
  };
  const sources: MutationSources = {
    pools: target.pools,
    args,
    other: () => (corpus.length > 0 ? rng.pick(corpus) : freshInput(rng, target.pools, args)),
  };
  const fresh = () => {
    const input = freshInput(rng, target.pools, args);
    return rng.chance(0.5) ? input : mutate(input, rng, sources);
  };
  const next = (): IngressInput => {
    // Early on nearly everything reaches new blocks, most of it early refusals: fresh requests
    // then explore more, and their share falls to one half as the corpus fills.
    const freshShare = 0.5 + 0.5 * Math.exp(-iteration / 100);
    if (options.mode === "random" || corpus.length === 0 || rng.chance(freshShare)) return fresh();
    return mutate(rng.chance(0.7) ? rare() : rng.pick(corpus), rng, sources);
  };
  await coverage.take();
  coverage.clear();
  const findings = new Map<string, Finding>();
  const started = performance.now();
  let iteration = 0;
  while (iteration < options.iterations && performance.now() - started < options.timeLimitMs) {
    iteration++;
    const input = next();
    const answer = await target.send(input);
    if (harvest(answer, target.pools.args)) args.refresh();
    for (const violation of judge(input, answer))
      if (!findings.has(violation.signature))
        findings.set(violation.signature, { ...violation, iteration, request: shown(input) });
    const { hit, fresh: reached } = await coverage.take();
    for (const block of hit) hits.set(block, (hits.get(block) ?? 0) + 1);
    // An oversized body is not kept: its refusal is reached again by the rare size mutation, and
    // its offspring would be slow to send.
    if (options.mode === "guided" && reached.length > 0 && input.body.length < 65_536) {
      corpus.push(input);
      reachedBy.push(hit);
    }
    if (options.stopAtFirst && [...findings.values()].some((f) => !f.known)) break;
  }
  return {
    mode: options.mode,
    seed: options.seed,
    iterations: iteration,
    elapsedMs: Math.round(performance.now() - started),
    blocks: coverage.covered.size,
    byFile: coverage.coveredByFile(),
    corpus: corpus.length,
    findings: [...findings.values()],
  };
}
