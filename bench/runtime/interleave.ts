import { type Call, drive, type Measurement } from "./load-driver.js";

/** One thing a benchmark measures: its clients' calls and the server processes doing the work. */
export interface Scenario {
  name: string;
  calls: Call[];
  /** Server processes whose CPU time the scenario's calls use. */
  pids: readonly (number | undefined)[];
  /**
   * Run before each stretch of the scenario's load (warm-up or slice), outside the measured time,
   * with the stretch's length in seconds: e.g. topping up the learners its calls use up.
   */
  prepare?: (seconds: number) => Promise<void>;
  /** The CPU time (ms) its database server has used so far, when it runs on one. */
  databaseCpu?: () => number | undefined;
}

/**
 * Measure scenarios in interleaved slices: `rounds` rounds, each running every scenario for
 * `sliceSeconds` (after `rewarmMs` of unmeasured calls on fresh connections), in an order that
 * rotates by one each round and reverses every other round, so load drift on a shared machine
 * reaches all scenarios alike. Returns each scenario's slices, in round order.
 */
export async function interleave(
  scenarios: readonly Scenario[],
  rounds: number,
  sliceSeconds: number,
  rewarmMs = 100,
): Promise<Map<string, Measurement[]>> {
  const slices = new Map<string, Measurement[]>(scenarios.map((s) => [s.name, []]));
  for (let round = 0; round < rounds; round++) {
    const rotated = scenarios.map((_, i) => scenarios[(i + round) % scenarios.length]);
    const order = round % 2 === 0 ? rotated : rotated.reverse();
    for (const s of order) {
      await s.prepare?.(sliceSeconds + rewarmMs / 1000);
      slices.get(s.name)!.push(await drive(s.calls, sliceSeconds, rewarmMs, s.pids, s.databaseCpu));
    }
  }
  return slices;
}

/** Warm every scenario up (unmeasured): JIT, caches and connections settle before measuring. */
export async function warmUp(scenarios: readonly Scenario[], seconds: number): Promise<void> {
  for (const s of scenarios) {
    await s.prepare?.(seconds);
    await drive(s.calls, 0, seconds * 1000);
  }
}
