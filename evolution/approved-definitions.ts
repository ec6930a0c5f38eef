import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
// One function module each: the whole semver package is ~50 CommonJS files to load.
import validVersion from "semver/functions/valid.js";
import compareVersion from "semver/functions/compare.js";
import { canonicalSha256, sha256Hex } from "../contract-model/canonical.js";
import {
  projectLayout,
  publishedDir,
  releaseFiles,
} from "../contract-model/project/project-layout.js";
import { readReleaseIndex } from "../contract-model/release/release-index.js";
import { readFreezeState } from "../contract-model/release/review-freeze.js";

/** Format tag of `contracts/retired-definitions.json`. */
export const retiredDefinitionsFormat = "skillpilot-retired-definitions/1";

/** One published release whose tool definitions hosts no longer hold. Never edited afterwards. */
export interface Retirement {
  version: string;
  reason: string;
  /** `YYYY-MM-DD`: from this date on no host holds the release's definitions. */
  retiredAt: string;
}

/** Who may still hold a definition: a published release, or the draft under review freeze. */
export type DefinitionHolder =
  | {
      kind: "published";
      version: string;
      /** True for a release adopted with `record-published --import`. */
      imported: boolean;
      /** Repository-relative path of the release's contract snapshot. */
      snapshotFile: string;
    }
  | { kind: "frozen-draft"; version: string; snapshotFile: string };

/** One distinct definition of a tool that some host may hold, with everyone holding it. */
export interface ApprovedDefinition {
  tool: string;
  /** sha256 of the descriptor's compact canonical JSON: equal definitions have equal hashes. */
  sha256: string;
  contractMajor: number;
  /** The MCP `tools/list` descriptor as the holder shipped it (no toolchain-only fields). */
  descriptor: Record<string, unknown>;
  /** Oldest published release first, the frozen draft last. */
  holders: DefinitionHolder[];
}

/** Every definition hosts may still hold, and how the records were read. */
export interface ApprovedDefinitions {
  /** Tool name → its distinct live definitions (sorted by tool name, then first holder). */
  tools: Map<string, ApprovedDefinition[]>;
  /** The live holders in order: published releases not retired (oldest first), then the draft. */
  holders: DefinitionHolder[];
  retired: Retirement[];
  /**
   * Records that could not be used (a published snapshot that is missing or disagrees with the
   * index, a frozen draft that no longer holds the frozen snapshot); `verify` reports them as
   * findings, readers skip them.
   */
  problems: string[];
}

/**
 * The retirements recorded in `contracts/retired-definitions.json`, oldest first; a missing file is
 * none. Throws on a file that is not such a record (verify reports it).
 */
export async function retiredReleases(root: string): Promise<Retirement[]> {
  const text = await readFile(path.join(root, projectLayout.retiredDefinitions), "utf8").catch(
    () => undefined,
  );
  if (text === undefined) return [];
  const doc = JSON.parse(text) as { format?: unknown; retirements?: unknown };
  if (doc.format !== retiredDefinitionsFormat || !Array.isArray(doc.retirements))
    throw new Error(
      `${projectLayout.retiredDefinitions} is not a ${retiredDefinitionsFormat} record`,
    );
  return doc.retirements as Retirement[];
}

/**
 * The holders whose definitions are live, without reading their tools: every release of the index
 * that is not retired (oldest first) and the draft under review freeze. Contract-Diff takes its
 * default baselines from here.
 */
export async function liveDefinitionHolders(
  root: string,
): Promise<{ holders: DefinitionHolder[]; retired: Retirement[]; problems: string[] }> {
  const retired = await retiredReleases(root);
  const gone = new Set(retired.map((r) => r.version));
  const index = await readReleaseIndex(root);
  const problems: string[] = [];
  const holders: DefinitionHolder[] = index.releases
    .filter((r) => !gone.has(r.version))
    .sort((a, b) =>
      validVersion(a.version) && validVersion(b.version) ? compareVersion(a.version, b.version) : 0,
    )
    .map((r) => ({
      kind: "published",
      version: r.version,
      imported: r.imported !== undefined,
      snapshotFile: `${publishedDir(r.packageName, r.version)}/${releaseFiles.snapshot}`,
    }));
  const draft = await frozenDraftSnapshot(root);
  if (draft.problem) problems.push(draft.problem);
  if (draft.holder) holders.push(draft.holder);
  return { holders, retired, problems };
}

/**
 * The live approved definitions of every tool (§10.1: while a revised definition is under review,
 * the previous one may stay active): each published release's tools until the release is retired,
 * plus the draft under review freeze. Reads `contracts/` only (release index, published and draft
 * snapshots, retirements, review freeze), never `schemas/`, so the runtime can use it too.
 */
export async function liveApprovedDefinitions(root: string): Promise<ApprovedDefinitions> {
  const live = await liveDefinitionHolders(root);
  const index = await readReleaseIndex(root);
  const problems = [...live.problems];
  const byKey = new Map<string, ApprovedDefinition>();
  const holders: DefinitionHolder[] = [];
  for (const holder of live.holders) {
    const bytes = await readFile(path.join(root, holder.snapshotFile)).catch(() => undefined);
    const recorded =
      holder.kind === "published"
        ? index.releases.find((r) => r.version === holder.version)?.snapshotSha256
        : undefined;
    if (!bytes) {
      problems.push(`${holder.snapshotFile} is missing`);
      continue;
    }
    if (recorded && sha256Hex(bytes) !== recorded) {
      problems.push(
        `${holder.snapshotFile} differs from its hash in ${projectLayout.releaseIndex}`,
      );
      continue;
    }
    const doc = descriptorsOf(bytes);
    if (!doc) {
      problems.push(`${holder.snapshotFile} is not a contract snapshot or tools list`);
      continue;
    }
    const major =
      index.releases.find((r) => holder.kind === "published" && r.version === holder.version)
        ?.contractMajor ?? doc.contractMajor;
    holders.push(holder);
    for (const descriptor of doc.tools) {
      const sha256 = canonicalSha256(descriptor);
      const tool = String(descriptor.name);
      const key = `${tool}\n${major}\n${sha256}`;
      const known = byKey.get(key);
      if (known) known.holders.push(holder);
      else byKey.set(key, { tool, sha256, contractMajor: major, descriptor, holders: [holder] });
    }
  }
  const tools = new Map<string, ApprovedDefinition[]>();
  for (const def of byKey.values()) tools.set(def.tool, [...(tools.get(def.tool) ?? []), def]);
  return {
    tools: new Map([...tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    holders,
    retired: live.retired,
    problems,
  };
}

/**
 * Tool names that only retired releases held: some retired release's package listed them, and no
 * live holder (a release not retired, the frozen draft) does. A development baseline (a git
 * commit) that still has such a tool does not make its removal breaking: every host that approved
 * it has rescanned, as the retirement records.
 */
export async function toolsFreedByRetirement(root: string): Promise<Set<string>> {
  const retired = new Set((await retiredReleases(root).catch(() => [])).map((r) => r.version));
  if (retired.size === 0) return new Set();
  const index = await readReleaseIndex(root);
  const freed = new Set<string>();
  for (const r of index.releases.filter((x) => retired.has(x.version))) {
    const file = `${publishedDir(r.packageName, r.version)}/${releaseFiles.snapshot}`;
    const bytes = await readFile(path.join(root, file)).catch(() => undefined);
    for (const t of (bytes && descriptorsOf(bytes)?.tools) ?? []) freed.add(String(t.name));
  }
  const live = await liveApprovedDefinitions(root);
  for (const name of live.tools.keys()) freed.delete(name);
  return freed;
}

/**
 * The tools/list descriptors of a snapshot (our format: each tool without its toolchain-only
 * `kind`, superseded tools left out) or of a tools list (`{"tools":[…]}`, as an imported release
 * records it); undefined for bytes that are neither.
 */
export function descriptorsOf(
  bytes: Buffer,
): { tools: Record<string, unknown>[]; contractMajor: number } | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || !Array.isArray(doc.tools)) return undefined;
  const plugin = isRecord(doc.plugin) ? doc.plugin : {};
  const snapshot = typeof doc.snapshotFormat === "string";
  // A superseded tool of a snapshot is in no release package and never listed: its holders are
  // the releases from before its replacement, not this one.
  const tools = doc.tools
    .filter((t): t is Record<string, unknown> => isRecord(t) && typeof t.name === "string")
    .filter((t) => !(snapshot && typeof t.supersededBy === "string"))
    .map((t) => {
      if (!snapshot) return t;
      const { kind: _kind, ...descriptor } = t;
      return descriptor;
    });
  return { tools, contractMajor: Number(doc.contractMajor ?? plugin.contractMajor ?? 1) };
}

/**
 * The draft under review freeze, found by the hash the freeze recorded: the one
 * `contracts/drafts/openai/<plugin>/<version>-SNAPSHOT/contract.snapshot.json` holding it.
 */
async function frozenDraftSnapshot(
  root: string,
): Promise<{ holder?: DefinitionHolder; problem?: string }> {
  const active = readFreezeState(root).active;
  if (!active) return {};
  const providers = path.join(root, projectLayout.draftsDir, "openai");
  for (const plugin of (await readdir(providers).catch(() => [] as string[])).sort()) {
    const snapshotFile = `${projectLayout.draftsDir}/openai/${plugin}/${active.version}-SNAPSHOT/${releaseFiles.snapshot}`;
    const bytes = await readFile(path.join(root, snapshotFile)).catch(() => undefined);
    if (bytes && sha256Hex(bytes) === active.snapshotSha256)
      return { holder: { kind: "frozen-draft", version: active.version, snapshotFile } };
  }
  return {
    problem: `no draft of ${active.version} holds the snapshot frozen for review (sha256 ${active.snapshotSha256.slice(0, 12)}…)`,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
