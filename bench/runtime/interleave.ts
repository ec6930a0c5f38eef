import { type Call, drive, type Measurement } from "./load-driver.js";
import { untilQuiet } from "./machine-quiet.js";
import { measureGroup } from "./paired-slices.js";

/** The alternating parts a group's slice is cut into (each member runs once per part). */
const GROUP_PARTS = 6;
/**
 * Unmeasured calls of every scenario (each member of a group) before its slice, in ms: its servers
 * sat idle while the others ran, and a server that has idled costs more per call for a while even
 * with V8's idle-time heuristics off (measured: the coach server 15-20% more in its first second
 * after 35 s idle, the SDK's echo server 5%). Every slice gets the same, whichever slice came
 * before it: a shorter one left the slices that follow another server's colder than those that
 * follow their own server's (the openai lane's context read, the first coach slice of a round in
 * one direction, measured 20% above the Claude lane's on the same server).
 */
const WARM_MS = 500;

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
  /**
   * What to wait for before and after each slice instead of a quiet machine alone: e.g. a server
   * that exports on a timer, whose last export belongs to the slice.
   */
  settle?: () => Promise<unknown>;
  /**
   * Scenarios compared with each other share a group: each round measures them together, in short
   * alternating parts (paired-slices.ts), so they see the same stretches of the machine's speed.
   */
  group?: string;
  /** The CPU time (ms) its database server has used so far, when it runs on one. */
  databaseCpu?: () => number | undefined;
}

/**
 * Measure scenarios in interleaved slices: `rounds` rounds, each running every scenario for
 * `sliceSeconds` (after `WARM_MS` of unmeasured calls), in an order that
 * rotates by one each round and reverses every other round, so load drift on a shared machine
 * reaches all scenarios alike. Each slice starts on a quiet machine and is charged what its calls
 * leave behind (machine-quiet.ts). The scenarios of a group take their slices together, in
 * alternating parts (paired-slices.ts), each part after `rewarmMs` (at most 50) of unmeasured calls:
 * each member still runs `sliceSeconds` a round. Returns each scenario's slices, in round order.
 */
export async function interleave(
  scenarios: readonly Scenario[],
  rounds: number,
  sliceSeconds: number,
  rewarmMs = 100,
): Promise<Map<string, Measurement[]>> {
  const slices = new Map<string, Measurement[]>(scenarios.map((s) => [s.name, []]));
  // A group is one unit, at its first member's place.
  const units: Scenario[][] = [];
  for (const s of scenarios) {
    const unit = s.group && units.find((u) => u[0].group === s.group);
    if (unit) unit.push(s);
    else units.push([s]);
  }
  for (let round = 0; round < rounds; round++) {
    const rotated = units.map((_, i) => units[(i + round) % units.length]);
    const order = round % 2 === 0 ? rotated : rotated.reverse();
    for (const unit of order) {
      if (unit.length > 1) {
        const measured = await measureGroup(
          unit,
          sliceSeconds,
          rewarmMs,
          GROUP_PARTS,
          untilQuiet,
          WARM_MS,
        );
        for (const [name, m] of measured) slices.get(name)!.push(m);
        continue;
      }
      const [s] = unit;
      await s.prepare?.(sliceSeconds + WARM_MS / 1000);
      slices
        .get(s.name)!
        .push(
          await drive(
            s.calls,
            sliceSeconds,
            WARM_MS,
            s.pids,
            s.databaseCpu,
            s.settle ?? untilQuiet,
          ),
        );
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
