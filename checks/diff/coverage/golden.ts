import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { docFromText } from "../baselines.js";
import { diffContracts } from "../contract-diff.js";
import { buildCase, coverageMap } from "./coverage-map.js";
import { diffListings } from "./demonstrate.js";

/** One finding as the golden file records it. */
export interface GoldenFinding {
  rule: string;
  pointer: string;
  fingerprint: string;
}

/** A recorded diff's frozen verdict. */
export interface GoldenVerdict {
  breaking: boolean;
  bump: string;
  findings: GoldenFinding[];
}

/** The golden file: every recorded diff's verdict, and how many changelog entries it answers. */
export interface GoldenFile {
  format: "skillpilot-diff-golden/1";
  changelogEntries: number;
  verdicts: Record<string, GoldenVerdict>;
}

/** Where the recorded diffs and their records live, relative to the project root. */
export const goldenPaths = {
  golden: "test/checks/diff/golden/verdicts.json",
  changelog: "docs/diff-verdict-changes.md",
  renames: "checks/diff/fingerprint-renames.json",
  corpus: "test/fixtures/diff-corpus",
  realCorpus: "../shared/corpora/diff-real-changes",
  published: "contracts/published",
};

const now = new Date("2026-12-01T00:00:00Z");
const frozen = (findings: { ruleId: string; pointer: string; fingerprint: string }[]) =>
  findings
    .map((f) => ({ rule: f.ruleId, pointer: f.pointer, fingerprint: f.fingerprint }))
    .sort((a, b) =>
      `${a.rule} ${a.pointer} ${a.fingerprint}`.localeCompare(
        `${b.rule} ${b.pointer} ${b.fingerprint}`,
      ),
    );

function diffFiles(oldFile: string, newFile: string, freed?: string): GoldenVerdict {
  const oldDoc = docFromText(readFileSync(oldFile, "utf8"), "old.json", []);
  const newDoc = docFromText(readFileSync(newFile, "utf8"), "new.json", []);
  if (!oldDoc || !newDoc) throw new Error(`${oldFile} or ${newFile} is not a contract`);
  if (freed && existsSync(freed))
    oldDoc.freedTools = new Set(JSON.parse(readFileSync(freed, "utf8")) as string[]);
  const r = diffContracts([oldDoc], newDoc, { waivers: [], now, versionCheck: false });
  return { breaking: r.breaking, bump: r.requiredBump, findings: frozen(r.findings) };
}

const folders = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((d) => statSync(path.join(dir, d)).isDirectory())
        .sort()
    : [];

/**
 * The published releases of the project (`contracts/published/<provider>/<plugin>/<version>/`),
 * per plugin line, oldest version first.
 */
function publishedLines(dir: string): Map<string, { version: string; file: string }[]> {
  const out = new Map<string, { version: string; file: string }[]>();
  for (const provider of folders(dir))
    for (const plugin of folders(path.join(dir, provider))) {
      const versions = folders(path.join(dir, provider, plugin))
        .map((version) => ({
          version,
          file: path.join(dir, provider, plugin, version, "contract.snapshot.json"),
        }))
        .filter((v) => existsSync(v.file))
        .sort((a, b) =>
          semver.valid(a.version) && semver.valid(b.version)
            ? semver.compare(a.version, b.version)
            : a.version < b.version
              ? -1
              : 1,
        );
      out.set(`${provider}/${plugin}`, versions);
    }
  return out;
}

/**
 * Every recorded diff, recomputed: the generated edit of every map entry (`edit:`), the project's
 * hand-written corpus (`corpus:`), the shared real-change corpus when it sits beside the project
 * (`real:`), and consecutive published releases of each plugin line of the project (`release:`). `optional` names the
 * sources that may be absent on a machine.
 */
export function recordVerdicts(
  root: string,
  /** `false` leaves out the generated edits (for a test of the other sources). */
  edits = true,
): {
  verdicts: Record<string, GoldenVerdict>;
  optional: Set<string>;
} {
  const verdicts: Record<string, GoldenVerdict> = {};
  for (const e of edits ? coverageMap().entries : []) {
    const { before, after } = buildCase([e]);
    const { result } = diffListings(before, after, now);
    verdicts[`edit:${e.edit.id}`] = {
      breaking: result.breaking,
      bump: result.requiredBump,
      findings: frozen(result.findings),
    };
  }
  const corpus = path.join(root, goldenPaths.corpus);
  for (const c of folders(corpus))
    verdicts[`corpus:${c}`] = diffFiles(
      path.join(corpus, c, "old.json"),
      path.join(corpus, c, "new.json"),
      path.join(corpus, c, "freed-tools.json"),
    );
  const optional = new Set<string>();
  const real = path.join(root, goldenPaths.realCorpus);
  if (existsSync(real)) optional.add("real:");
  for (const c of folders(real))
    verdicts[`real:${c}`] = diffFiles(
      path.join(real, c, "old.json"),
      path.join(real, c, "new.json"),
    );
  for (const [line, versions] of publishedLines(path.join(root, goldenPaths.published)))
    for (let i = 1; i < versions.length; i++)
      verdicts[`release:${line}@${versions[i - 1].version}..${versions[i].version}`] = diffFiles(
        versions[i - 1].file,
        versions[i].file,
      );
  return { verdicts, optional };
}

/** What differs between the golden file and the recomputed verdicts. */
export interface GoldenDrift {
  changed: string[];
  added: string[];
  removed: string[];
  /** Recorded diffs whose source is absent here (the shared corpus on a machine without it). */
  skipped: number;
  checked: number;
}

const sourceOf = (id: string) => `${id.slice(0, id.indexOf(":"))}:`;

/** Compare recomputed verdicts with the golden file. */
export function goldenDrift(
  golden: GoldenFile,
  current: Record<string, GoldenVerdict>,
  present: Set<string>,
): GoldenDrift {
  const drift: GoldenDrift = { changed: [], added: [], removed: [], skipped: 0, checked: 0 };
  for (const [id, v] of Object.entries(golden.verdicts)) {
    const now = current[id];
    if (!now) {
      if (sourceOf(id) === "real:" && !present.has("real:")) drift.skipped++;
      else drift.removed.push(id);
      continue;
    }
    drift.checked++;
    if (JSON.stringify(now) !== JSON.stringify(v)) drift.changed.push(id);
  }
  for (const id of Object.keys(current)) if (!(id in golden.verdicts)) drift.added.push(id);
  return drift;
}

/** Each recorded finding whose fingerprint changed: old fingerprint → its successors. */
function fingerprintChanges(
  golden: GoldenFile,
  current: Record<string, GoldenVerdict>,
): Map<string, { successors: Set<string>; where: string[] }> {
  const out = new Map<string, { successors: Set<string>; where: string[] }>();
  for (const [id, v] of Object.entries(golden.verdicts)) {
    const now = current[id];
    if (!now) continue;
    const nowPrints = new Set(now.findings.map((f) => f.fingerprint));
    for (const f of v.findings) {
      if (nowPrints.has(f.fingerprint)) continue;
      const successor = now.findings.find((g) => g.rule === f.rule && g.pointer === f.pointer);
      if (!successor) continue;
      const entry = out.get(f.fingerprint) ?? { successors: new Set<string>(), where: [] };
      entry.successors.add(successor.fingerprint);
      entry.where.push(
        `${id}: ${f.rule} at ${f.pointer}: ${f.fingerprint} → ${successor.fingerprint}`,
      );
      out.set(f.fingerprint, entry);
    }
  }
  return out;
}

/**
 * Fingerprints a change of the golden file would invalidate without a rename: a finding (same
 * rule and pointer, same recorded diff) whose fingerprint changed and that the renames file does
 * not map from its old fingerprint to the new one. An old fingerprint that several findings
 * shared (now told apart) cannot be renamed to one of them; `ambiguousRenames` lists those.
 */
export function missingRenames(
  golden: GoldenFile,
  current: Record<string, GoldenVerdict>,
  renames: Readonly<Record<string, string>>,
): string[] {
  return [...fingerprintChanges(golden, current)].flatMap(([old, { successors, where }]) =>
    successors.size === 1 && renames[old] !== [...successors][0] ? where : [],
  );
}

/** Old fingerprints several recorded findings shared, each now with its own fingerprint. */
export function ambiguousRenames(
  golden: GoldenFile,
  current: Record<string, GoldenVerdict>,
): string[] {
  return [...fingerprintChanges(golden, current)]
    .filter(([, c]) => c.successors.size > 1)
    .map(([old, c]) => `${old} (shared by ${c.where.length} findings, now ${c.successors.size})`);
}

/** Entries of the verdict changelog: its list items. */
export function changelogEntries(text: string): number {
  return text.split("\n").filter((l) => /^- \S/.test(l)).length;
}

/** The golden file's text: stable order, one verdict per key. */
export function goldenText(verdicts: Record<string, GoldenVerdict>, changelog: number): string {
  // One recorded diff per line, in key order: a verdict change is a one-line diff in review.
  const lines = Object.keys(verdicts)
    .sort()
    .map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(verdicts[k])}`);
  return (
    `{\n "format": "skillpilot-diff-golden/1",\n "changelogEntries": ${changelog},\n` +
    ` "verdicts": {\n${lines.join(",\n")}\n }\n}\n`
  );
}

/**
 * What `--update` does: refuse (no verdict changed, no new changelog entry, or a fingerprint
 * change without its rename), or the new golden text. Recorded diffs of a source absent here (the
 * shared corpus) keep their recorded verdicts.
 */
export function goldenUpdate(
  golden: GoldenFile,
  current: Record<string, GoldenVerdict>,
  present: Set<string>,
  changelog: number,
  renames: Readonly<Record<string, string>>,
): { refused: string; unmapped?: string[] } | { text: string; changes: number } {
  const drift = goldenDrift(golden, current, present);
  const changes = drift.changed.length + drift.added.length + drift.removed.length;
  if (changes === 0) return { refused: "no verdict changed; the golden file is current" };
  if (changelog <= golden.changelogEntries)
    return {
      refused:
        `${changes} recorded verdicts changed, but ${goldenPaths.changelog} has no new entry ` +
        `(a "- …" line saying what changed and why)`,
    };
  const unmapped = missingRenames(golden, current, renames);
  if (unmapped.length)
    return {
      refused:
        `${unmapped.length} finding fingerprints changed without a rename in ` +
        `${goldenPaths.renames} (waivers would stop matching)`,
      unmapped,
    };
  const kept = Object.fromEntries(
    Object.entries(golden.verdicts).filter(
      ([id]) => !(id in current) && sourceOf(id) === "real:" && !present.has("real:"),
    ),
  );
  return { text: goldenText({ ...kept, ...current }, changelog), changes };
}
