import { lstat } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { canonicalJsonCompact } from "../../contract-model/canonical.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import {
  type FileVersion,
  readGitFile,
  readGitTree,
  workTreeBlobIds,
} from "../../contract-model/history/git-history.js";
import type { ReleaseEntry, ReleaseIndex } from "../../contract-model/release/release-index.js";

export const RELEASE_RECORD_REWRITTEN = defineRule({
  id: "RELEASE_RECORD_REWRITTEN",
  family: "release",
  severity: "error",
  summary:
    "A release record of the git baseline or history was deleted or rewritten: the release index, " +
    "the retired definitions and the published folders are append-only, every entry and file " +
    "stays byte-identical (L4).",
  message: {
    entryRemoved:
      "{index} no longer holds the entry of {version} recorded at {where}; the release index is append-only: restore the entry",
    entryChanged:
      "{index}: the entry of {version} differs from the one recorded at {where} (changed: {fields}); a release entry is never edited: restore it",
    format:
      "{index}: indexFormat {format:json} differs from {recorded:json} recorded at {where}; the release index is never rewritten",
    fileRemoved:
      "{file} was published (committed at {where}) but is missing; a published folder is immutable: restore it from git",
    fileChanged:
      "{file} differs from its bytes committed at {where}; a published folder is immutable: restore it from git",
    retirementRemoved:
      "{file} no longer holds the retirement of {version} committed at {where}; retirements are append-only: restore it",
    retirementChanged:
      "{file}: the retirement of {version} differs from the one committed at {where}; a retirement is never edited: restore it",
  },
});

const index = projectLayout.releaseIndex;

/** A committed index entry: its canonical bytes and where it was first seen. */
interface CommittedEntry {
  version: string;
  entry: ReleaseEntry;
  where: string;
}

/**
 * Release records only grow (L4). Against every version of `contracts/release-index.json` in the
 * git history (`history`), each entry ever committed is still in the index with the content it was
 * first committed with. With a baseline (`since`, `git:REF`) also: the index holds the baseline's
 * entries in the same positions, byte for byte (canonical JSON), with its format, and every file
 * under `contracts/published/` at the baseline still exists with the same bytes. New entries and
 * files may be added. An unreadable baseline is left to `LINE_BASELINE_MISSING`.
 */
export async function checkReleaseRecords(
  root: string,
  current: ReleaseIndex,
  options: { since?: string; history?: readonly FileVersion[] },
): Promise<Diagnostic[]> {
  const findings = new Map<string, Diagnostic>();
  const add = (key: string, d: Diagnostic) => {
    if (!findings.has(key)) findings.set(key, d);
  };
  const committed = new Map<string, CommittedEntry>();
  for (const v of options.history ?? [])
    if (v.path === index)
      for (const [i, entry] of entriesOf(v.text).entries()) {
        const version = entryKey(entry, i);
        if (!committed.has(version))
          committed.set(version, { version, entry, where: `git:${v.commit.slice(0, 12)}` });
      }
  for (const c of committed.values()) compareEntry(c, current, add);
  if (options.since !== undefined) {
    const ref = options.since.replace(/^git:/, "");
    const where = `git:${ref}`;
    const text = await readGitFile(root, ref, index);
    if (text === null) return [...findings.values()];
    const base = text === undefined ? undefined : parseIndex(text);
    if (base) {
      for (const [i, entry] of base.releases.entries())
        compareEntry({ version: entryKey(entry, i), entry, where }, current, add, i);
      if (base.releases.length && base.indexFormat !== current.indexFormat)
        add(
          "format",
          diagnose(
            RELEASE_RECORD_REWRITTEN,
            {
              variant: "format",
              index,
              format: current.indexFormat,
              recorded: base.indexFormat,
              where,
            },
            { file: index, pointer: "/indexFormat" },
          ),
        );
    }
    for (const d of await comparePublishedTree(root, ref)) add(`file:${d.location.file}`, d);
  }
  return [...findings.values()];
}

/**
 * The entry of `c.version` in the current index (at `position` when given: the baseline's order
 * is kept too) must equal the committed one.
 */
function compareEntry(
  c: CommittedEntry,
  current: ReleaseIndex,
  add: (key: string, d: Diagnostic) => void,
  position?: number,
): void {
  const i =
    position !== undefined && entryKey(current.releases[position], position) === c.version
      ? position
      : current.releases.findIndex((e, j) => entryKey(e, j) === c.version);
  const now = current.releases[i];
  const params = { index, version: c.version, where: c.where };
  if (i < 0 || now === undefined || (position !== undefined && i !== position)) {
    if (i < 0 || now === undefined)
      add(
        `entry:${c.version}`,
        diagnose(RELEASE_RECORD_REWRITTEN, { variant: "entryRemoved", ...params }, { file: index }),
      );
    else
      add(
        `entry:${c.version}`,
        diagnose(
          RELEASE_RECORD_REWRITTEN,
          { variant: "entryChanged", ...params, fields: `its position ${position} → ${i}` },
          { file: index, pointer: `/releases/${i}` },
        ),
      );
    return;
  }
  if (canonicalJsonCompact(now) === canonicalJsonCompact(c.entry)) return;
  add(
    `entry:${c.version}`,
    diagnose(
      RELEASE_RECORD_REWRITTEN,
      { variant: "entryChanged", ...params, fields: changedFields(c.entry, now).join(", ") },
      { file: index, pointer: `/releases/${i}` },
    ),
  );
}

/** Every file under `contracts/published/` at `ref` still exists in the work tree, same bytes. */
async function comparePublishedTree(root: string, ref: string): Promise<Diagnostic[]> {
  const tree = await readGitTree(root, ref, projectLayout.publishedDir);
  if (!tree) return [];
  const out: Diagnostic[] = [];
  const where = `git:${ref}`;
  const present: string[] = [];
  for (const file of [...tree.keys()].sort()) {
    const stat = await lstat(path.join(root, file)).catch(() => undefined);
    if (stat?.isFile()) present.push(file);
    else
      out.push(
        diagnose(RELEASE_RECORD_REWRITTEN, { variant: "fileRemoved", file, where }, { file }),
      );
  }
  const ids = await workTreeBlobIds(root, present).catch(() => new Map<string, string>());
  for (const file of present)
    if (ids.get(file) !== tree.get(file)?.blob)
      out.push(
        diagnose(RELEASE_RECORD_REWRITTEN, { variant: "fileChanged", file, where }, { file }),
      );
  return out;
}

function parseIndex(text: string): ReleaseIndex | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<ReleaseIndex>;
    return {
      indexFormat: parsed.indexFormat ?? "",
      releases: Array.isArray(parsed.releases) ? parsed.releases : [],
    };
  } catch {
    return undefined;
  }
}

const entriesOf = (text: string): ReleaseEntry[] => parseIndex(text)?.releases ?? [];

/** An entry's identity: its version, or its position when it has none. */
const entryKey = (entry: ReleaseEntry | undefined, i: number): string =>
  typeof entry?.version === "string" ? entry.version : `#${i}`;

/** The top-level fields two entries disagree on (for the message). */
function changedFields(before: ReleaseEntry, after: ReleaseEntry): string[] {
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => canonicalJsonCompact(a[k]) !== canonicalJsonCompact(b[k]))
    .sort();
}
