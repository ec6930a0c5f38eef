import { readFileSync, statSync, type BigIntStats } from "node:fs";
import type { ContractLine } from "../../generated/types.gen.js";
import { validateContractLine } from "../../generated/validators.gen.js";
import { CoachError } from "../errors.js";

/**
 * A file written this close (ms) to when it was read may be written again within the same
 * file-system timestamp tick (Linux stamps files from a coarse clock), leaving mtime and size
 * unchanged. Until the file is older than this, every look re-reads it ("racy" entry, as in git).
 */
const RACY_MARGIN_MS = 50;

interface CachedLine {
  /**
   * mtime, ctime, size and inode (undefined: the file was missing): any edit or atomic replace
   * changes at least one.
   */
  signature: Pick<BigIntStats, "mtimeNs" | "ctimeNs" | "size" | "ino"> | undefined;
  line: ContractLine | undefined;
  racy: boolean;
}

/**
 * Compared field by field: this runs on every call, and formatting four bigints as text cost more
 * than the stat.
 */
function sameSignature(a: CachedLine["signature"], b: BigIntStats): boolean {
  return (
    a !== undefined &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs &&
    a.size === b.size &&
    a.ino === b.ino
  );
}

/** Parse and validate the text of a line file; anything invalid is undefined (fail closed). */
export function parseLine(text: string): ContractLine | undefined {
  try {
    const line = JSON.parse(text) as unknown;
    return validateContractLine(line) ? line : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The highest policyRevision served (L11; kept in the database by `PolicyRevisionFloor`): a line
 * below it is refused, a line above it raises it.
 */
export interface RevisionFloor {
  readonly current: number;
  raise(revision: number): void;
  /** The database was found to hold `stored`: rise to it in memory. */
  observe(stored: number): void;
  /** Re-read the stored floor in the background (another process may have raised it). */
  refresh(): void;
}

/**
 * The contract line currently in force (`release/line.json`, L11), kept in memory for the hot path.
 * Each `current()` costs one `stat`; the file is read again only when it changed (or was written so
 * recently that a change could hide in the same timestamp tick). With a revision floor, a line whose
 * policyRevision is below the highest one served counts as invalid (fail closed: a lowered
 * revision never brings sessions a bump retired back); applying a higher one raises it. A changed
 * file also has the floor re-read from the database, where another process may have raised it.
 */
export class LineSource {
  private cached: CachedLine | undefined;

  constructor(
    readonly file: string,
    private readonly floor?: RevisionFloor,
    private readonly onLowered?: (revision: number, floor: number) => void,
  ) {}

  /**
   * Judge a line read elsewhere (the launch path reads the file itself) against the floor: a line
   * below it is no line (undefined).
   */
  admit(line: ContractLine | undefined): ContractLine | undefined {
    if (!line || !this.floor) return line;
    return line.policyRevision < this.floor.current ? undefined : line;
  }

  /**
   * A session call or a launch was judged under `revision` (served, or refused by it: a bump
   * retires sessions without serving anything): the floor rises to it. Reading the line for
   * anything else does not (a start refused later has applied nothing).
   */
  applied(revision: number): void {
    this.floor?.raise(revision);
  }

  /**
   * A launch under `revision` was refused by `stored`, the floor the database holds (raised by
   * another process): the in-memory floor rises to it, so calls fail closed too, and the lowered
   * line is reported.
   */
  refusedBelow(revision: number, stored: number): void {
    this.floor?.observe(stored);
    this.onLowered?.(revision, stored);
  }

  /** The line as the file says now; undefined when it is missing or invalid. */
  current(): ContractLine | undefined {
    let st: BigIntStats;
    try {
      st = statSync(this.file, { bigint: true });
    } catch {
      this.cached = { signature: undefined, line: undefined, racy: false };
      return undefined;
    }
    if (this.cached && !this.cached.racy && sameSignature(this.cached.signature, st))
      return this.cached.line && this.admit(this.cached.line);
    // Not on the first read: the floor was read from the database a moment ago, at start.
    if (this.cached && !sameSignature(this.cached.signature, st)) this.floor?.refresh();
    const mtimeMs = Number(st.mtimeMs);
    const signature = { mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, size: st.size, ino: st.ino };
    const readAt = Date.now();
    let line: ContractLine | undefined;
    try {
      line = parseLine(readFileSync(this.file, "utf8"));
    } catch {
      line = undefined;
    }
    this.cached = { signature, line, racy: readAt - mtimeMs < RACY_MARGIN_MS };
    const admitted = this.admit(line);
    if (line && !admitted && this.floor) this.onLowered?.(line.policyRevision, this.floor.current);
    return admitted;
  }

  /**
   * The `policyRevision` capabilities are minted and checked under: the line's current one, so a
   * higher revision makes every older capability and option payload stale (L11). An unreadable
   * line fails closed.
   */
  policyRevision(): number {
    const line = this.current();
    if (!line) throw new CoachError("TEMPORARILY_UNAVAILABLE");
    return line.policyRevision;
  }
}
