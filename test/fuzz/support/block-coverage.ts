import { Session } from "node:inspector/promises";
import { pathToFileURL } from "node:url";

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** A range's key within its function. */
const rangeKey = (r: Range) => `${r.startOffset}-${r.endOffset}`;

/**
 * Block coverage of this process's own code under one folder, from V8's precise coverage (the
 * inspector's `Profiler`, block granularity, call counts, read and reset after every input).
 *
 * V8 reports a function's range and, inside it, only the blocks whose count differs from the
 * block around them (a branch not taken, a loop body, the code after an early `return`). A block
 * is known from the first report that names it; from then on, a report that leaves it out gives it
 * the count of the innermost reported range around it. A block counts as covered once any report
 * gives it a non-zero count. Offsets are in the code V8 ran (for TypeScript, tsx's output), stable
 * within a process: block keys compare within one process only.
 */
export class BlockCoverage {
  private readonly session = new Session();
  private readonly prefix: string;
  /** Every block covered since the last `clear`, as `script:function:start-end`. */
  readonly covered = new Set<string>();
  /** The blocks known of each function, by `script:function`. */
  private readonly known = new Map<string, Map<string, Range>>();
  private readonly scripts = new Map<string, number>();

  /** `folder`: an absolute path; only scripts loaded from under it (not node_modules) count. */
  constructor(folder: string) {
    this.prefix = pathToFileURL(folder).href.replace(/\/?$/, "/");
  }

  /**
   * Start collecting. Functions compiled before this have no block counters (V8 reports them as
   * whole functions): start before the measured code is loaded.
   */
  async start(): Promise<void> {
    this.session.connect();
    await this.session.post("Profiler.enable");
    await this.session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
    await this.take();
    this.clear();
  }

  /** Forget every block covered and known (a new run starts from nothing). */
  clear(): void {
    this.covered.clear();
    this.known.clear();
  }

  /**
   * The blocks run since the last call (`hit`) and those of them no earlier call saw (`fresh`,
   * added to `covered`); reading resets V8's counters.
   */
  async take(): Promise<{ hit: string[]; fresh: string[] }> {
    const { result } = await this.session.post("Profiler.takePreciseCoverage");
    const fresh: string[] = [];
    const hit: string[] = [];
    for (const script of result) {
      if (!script.url.startsWith(this.prefix) || script.url.includes("/node_modules/")) continue;
      const index = this.scripts.get(script.url) ?? this.scripts.size;
      this.scripts.set(script.url, index);
      for (const fn of script.functions) {
        const ranges = fn.ranges as Range[];
        if (ranges.length === 0 || ranges[0].count === 0) continue;
        const id = `${index}:${ranges[0].startOffset}`;
        const known = this.known.get(id) ?? new Map<string, Range>();
        this.known.set(id, known);
        for (const r of ranges) known.set(rangeKey(r), r);
        for (const [key, block] of known) {
          if (countIn(ranges, block) === 0) continue;
          const name = `${id}:${key}`;
          hit.push(name);
          if (this.covered.has(name)) continue;
          this.covered.add(name);
          fresh.push(name);
        }
      }
    }
    return { hit, fresh };
  }

  /** How many covered blocks each script has, by its path under the folder. */
  coveredByFile(): Record<string, number> {
    const names = new Map([...this.scripts].map(([url, index]) => [String(index), url]));
    const out: Record<string, number> = {};
    for (const key of this.covered) {
      const url = names.get(key.slice(0, key.indexOf(":"))) ?? "?";
      const file = url.slice(this.prefix.length);
      out[file] = (out[file] ?? 0) + 1;
    }
    return out;
  }

  /** Stop collecting and let V8 run at full speed again. */
  async stop(): Promise<void> {
    await this.session.post("Profiler.stopPreciseCoverage");
    await this.session.post("Profiler.disable");
    this.session.disconnect();
  }
}

/** The count of `block` in one report: its own, else that of the innermost range around it. */
function countIn(ranges: readonly Range[], block: Range): number {
  let best: Range | undefined;
  for (const r of ranges)
    if (
      r.startOffset <= block.startOffset &&
      r.endOffset >= block.endOffset &&
      (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)
    )
      best = r;
  return best?.count ?? 0;
}
