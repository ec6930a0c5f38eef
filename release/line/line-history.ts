import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { validateLineTransition } from "../../generated/validators.gen.js";
import {
  projectLayout,
  publishedRoot,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import { type FileVersion, readGitFile } from "../../contract-model/history/git-history.js";
import type { ReleaseEntry, ReleaseIndex } from "../../contract-model/release/release-index.js";

/** The three orthogonal axes of a contract line (L11), in the order they are checked. */
export const lineAxes = ["supportLifecycle", "publicationStatus", "newSessionPolicy"] as const;
export type LineAxis = (typeof lineAxes)[number];

/** The policy state of a line: its axes and its revision. */
export interface LineState {
  contractMajor: number;
  policyRevision: number;
  supportLifecycle?: string;
  publicationStatus?: string;
  newSessionPolicy?: string;
}

export const LINE_TRANSITION_FORBIDDEN = defineRule({
  id: "LINE_TRANSITION_FORBIDDEN",
  family: "release",
  severity: "error",
  summary:
    "A contract-line axis changed in a way contract-line-transition/v1 forbids (published is " +
    "never a draft again, support only moves forward, RETIRED is final) (L4, L11).",
  message: {
    axis: "{axis} {from} → {to} is not an allowed transition (the state recorded by {recorded}); contract-line-transition/v1 allows {from} → {allowed}",
    retired: "a RETIRED line stays UNPUBLISHED; {version} cannot be recorded as published under it",
    major:
      "{lineFile} is the line of contract major {line}, but {version} ships contract major {published}",
  },
});
export const LINE_REVISION_LOWERED = defineRule({
  id: "LINE_REVISION_LOWERED",
  family: "release",
  severity: "error",
  summary:
    "policyRevision is below a revision already recorded in the release index or a published " +
    "snapshot; it only ever rises (L11).",
  message:
    "policyRevision {revision} is below {recorded}, recorded by {where}; a revision never goes back (lowering it would revive retired sessions): raise it instead",
});
export const LINE_SUCCESSOR_NOT_PUBLISHED = defineRule({
  id: "LINE_SUCCESSOR_NOT_PUBLISHED",
  family: "release",
  severity: "error",
  summary: "A WARN line's successor must be a published line in the release index (L11).",
  message:
    "WARN line's successor (contract major {major}) is not a published line: {index} records no release of contract major {major}",
});

export const LINE_BASELINE_MISSING = defineRule({
  id: "LINE_BASELINE_MISSING",
  family: "release",
  severity: "warning",
  summary:
    "verify --since names a git revision without a readable release/line.json; the line was " +
    "checked against the release records only (L11).",
  message:
    "{ref} has no readable {lineFile}: its transitions were checked against the release records only",
});

/** Whether contract-line-transition/v1 allows `axis` to move from `from` to `to`. */
export function transitionAllowed(axis: LineAxis, from: string, to: string): boolean {
  return validateLineTransition({ axis, from, to });
}

/** Every value `axis` may move to from `from`, by the schema (for messages and docs). */
export function allowedTargets(axis: LineAxis, from: string): string[] {
  const values: Record<LineAxis, string[]> = {
    supportLifecycle: ["CURRENT", "SUPPORTED", "DEPRECATED", "RETIRED"],
    publicationStatus: ["DRAFT", "PUBLISHED", "UNPUBLISHED"],
    newSessionPolicy: ["ALLOW", "WARN", "BLOCK"],
  };
  return values[axis].filter((to) => transitionAllowed(axis, from, to));
}

/**
 * Every value `axis` can reach from `from` through one or more allowed transitions: a line that
 * held `from` at any time may hold one of these now (DRAFT → PUBLISHED → UNPUBLISHED is a path,
 * PUBLISHED → DRAFT is none).
 */
export function reachableTargets(axis: LineAxis, from: string): Set<string> {
  const seen = new Set<string>([from]);
  for (const value of seen) for (const to of allowedTargets(axis, value)) seen.add(to);
  return seen;
}

/** A recorded line state and where it was recorded (for messages). */
export interface RecordedLine {
  state: LineState;
  where: string;
}

/**
 * The line states the release records hold, oldest first: each release index entry (the state
 * `record-published` left the line in; older entries only carry the revision and imply PUBLISHED)
 * and the line of each published snapshot (its revision; its axes are the frozen draft's).
 */
export async function recordedLines(
  root: string,
  plugin: string,
  index: ReleaseIndex,
): Promise<RecordedLine[]> {
  const out: RecordedLine[] = [];
  for (const entry of index.releases) out.push(fromIndexEntry(entry));
  const dir = path.join(root, publishedRoot(plugin));
  const versions = (await readdir(dir).catch(() => [] as string[]))
    .filter((v) => semver.valid(v))
    .sort(semver.compare);
  for (const version of versions) {
    const file = `${publishedRoot(plugin)}/${version}/${releaseFiles.snapshot}`;
    const snapshot = await readFile(path.join(root, file), "utf8")
      .then((t) => JSON.parse(t) as { line?: Partial<LineState> })
      .catch(() => undefined);
    const line = snapshot?.line;
    if (line && typeof line.policyRevision === "number" && typeof line.contractMajor === "number")
      out.push({
        state: { contractMajor: line.contractMajor, policyRevision: line.policyRevision },
        where: file,
      });
  }
  return out;
}

/**
 * The line as committed at a git revision (`verify --since git:REF`, e.g. CI's merge base): the
 * most recent recorded state, so a transition between two commits is judged too. Undefined when
 * the revision or the file cannot be read.
 */
export async function lineAtGitRef(root: string, ref: string): Promise<RecordedLine | undefined> {
  const text = await readGitFile(root, ref, projectLayout.lineFile);
  const state = text ? lineState(text) : undefined;
  return state && { state, where: `git:${ref}:${projectLayout.lineFile}` };
}

function fromIndexEntry(entry: ReleaseEntry): RecordedLine {
  const where = `${projectLayout.releaseIndex} (${entry.version})`;
  if (entry.line) return { state: { ...entry.line, contractMajor: entry.contractMajor }, where };
  return {
    state: {
      contractMajor: entry.contractMajor,
      policyRevision: entry.linePolicyRevision,
      publicationStatus: "PUBLISHED",
    },
    where,
  };
}

/**
 * The line states of `release/line.json` as committed in git, oldest first (`where` names the
 * commit); versions that are not a contract line (unreadable JSON, no revision) are skipped.
 */
export function committedLines(versions: readonly FileVersion[]): RecordedLine[] {
  return versions.flatMap((v) => {
    const state = lineState(v.text);
    return state ? [{ state, where: `git:${v.commit.slice(0, 12)}:${v.path}` }] : [];
  });
}

function lineState(text: string): LineState | undefined {
  try {
    const line = JSON.parse(text) as LineState;
    if (typeof line.policyRevision !== "number" || typeof line.contractMajor !== "number")
      return undefined;
    const { contractMajor, policyRevision, supportLifecycle, publicationStatus, newSessionPolicy } =
      line;
    return { contractMajor, policyRevision, supportLifecycle, publicationStatus, newSessionPolicy };
  } catch {
    return undefined;
  }
}

/**
 * The line now against what the release records and the git history say (L4, L11): its
 * policyRevision is not below any recorded revision of the same contract major; each axis moved
 * from the last recorded state as contract-line-transition/v1 allows, and is reachable through
 * allowed transitions from every earlier recorded state (so a forbidden change followed by other
 * commits is still found); a WARN successor is a published line of the index.
 */
export function checkLineHistory(
  line: LineState & { successor?: { contractMajor: number } | null },
  recorded: readonly RecordedLine[],
  index: ReleaseIndex,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (pointer: string) => ({ file: projectLayout.lineFile, pointer });
  const same = recorded.filter((r) => r.state.contractMajor === line.contractMajor);
  const highest = same.reduce<RecordedLine | undefined>(
    (best, r) => (!best || r.state.policyRevision > best.state.policyRevision ? r : best),
    undefined,
  );
  if (highest && line.policyRevision < highest.state.policyRevision)
    out.push(
      diagnose(
        LINE_REVISION_LOWERED,
        {
          revision: line.policyRevision,
          recorded: highest.state.policyRevision,
          where: highest.where,
        },
        at("/policyRevision"),
      ),
    );
  for (const axis of lineAxes) {
    const held = same.filter((r) => r.state[axis] !== undefined);
    const to = line[axis];
    if (to === undefined) continue;
    const last = held.at(-1);
    const direct = last && !transitionAllowed(axis, last.state[axis]!, to) ? last : undefined;
    const stranded =
      direct ?? [...held].reverse().find((r) => !reachableTargets(axis, r.state[axis]!).has(to));
    if (!stranded) continue;
    const from = stranded.state[axis]!;
    out.push(
      diagnose(
        LINE_TRANSITION_FORBIDDEN,
        {
          variant: "axis",
          axis,
          from,
          to,
          recorded: stranded.where,
          allowed: allowedTargets(axis, from).join(", "),
        },
        at(`/${axis}`),
      ),
    );
  }
  if (
    line.newSessionPolicy === "WARN" &&
    line.successor &&
    !index.releases.some((r) => r.contractMajor === line.successor!.contractMajor)
  )
    out.push(
      diagnose(
        LINE_SUCCESSOR_NOT_PUBLISHED,
        { major: line.successor.contractMajor, index: projectLayout.releaseIndex },
        at("/successor"),
      ),
    );
  return out;
}
