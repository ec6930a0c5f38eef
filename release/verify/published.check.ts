import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { buildArchives } from "../bundle/archives.js";
import { collectTree } from "../../contract-model/file-tree/collect-tree.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import {
  projectLayout,
  publishedDir,
  publishedRoot,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import type { ReleaseEntry, ReleaseIndex } from "../../contract-model/release/release-index.js";
import { checkImportedRelease } from "./imported.check.js";
import { inspectReleaseDir } from "../release-dir.js";

const PUBLISHED_TAMPERED = defineRule({
  id: "PUBLISHED_TAMPERED",
  family: "release",
  severity: "error",
  summary: "A published folder no longer matches its SHA256SUMS (L4).",
  message: "{dir}: {problem}",
});
const PUBLISHED_INDEX_MISMATCH = defineRule({
  id: "PUBLISHED_INDEX_MISMATCH",
  family: "release",
  severity: "error",
  summary: "A published folder and its release-index entry disagree (L4).",
  message: "{dir}: {what} differs from {index}",
});
const PUBLISHED_MISSING = defineRule({
  id: "PUBLISHED_MISSING",
  family: "release",
  severity: "error",
  summary: "The release index names a version whose published folder is missing (L4).",
  message: "{dir} is missing, but {index} lists {version}",
});
const PUBLISHED_UNINDEXED = defineRule({
  id: "PUBLISHED_UNINDEXED",
  family: "release",
  severity: "error",
  summary:
    "A published folder has no release-index entry; only record-published writes there (L4).",
  message: "{dir} is not in {index}",
});
const BUNDLE_NOT_REPRODUCIBLE = defineRule({
  id: "BUNDLE_NOT_REPRODUCIBLE",
  family: "release",
  severity: "error",
  summary: "Rebuilding a published package tree does not give its archives' bytes (L5, L12.3).",
  message: "{dir}: archives rebuilt from {packageDir}/ differ from the published ones",
});

/**
 * Every published folder still matches the index (L4): its own SHA256SUMS, the index's content,
 * snapshot and archive hashes, and archives rebuilt from its package tree (L5: the bundle is
 * reproducible from what it contains). Folders without an entry and entries without a folder fail.
 */
export async function checkPublished(
  root: string,
  plugin: string,
  index: ReleaseIndex,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const known = new Set(index.releases.map((r) => r.version));
  const onDisk = await readdir(path.join(root, publishedRoot(plugin))).catch(() => [] as string[]);
  for (const name of onDisk.sort())
    if (!known.has(name) && !name.includes(".tmp-"))
      out.push(
        diagnose(
          PUBLISHED_UNINDEXED,
          { dir: publishedDir(plugin, name), index: projectLayout.releaseIndex },
          { file: publishedDir(plugin, name) },
        ),
      );
  for (const entry of index.releases) {
    const dir = publishedDir(plugin, entry.version);
    const abs = path.join(root, dir);
    const state = await inspectReleaseDir(abs);
    if (!state.exists) {
      out.push(
        diagnose(
          PUBLISHED_MISSING,
          { dir, index: projectLayout.releaseIndex, version: entry.version },
          { file: dir },
        ),
      );
      continue;
    }
    for (const p of state.problems)
      out.push(diagnose(PUBLISHED_TAMPERED, { dir, problem: p }, { file: dir }));
    const mismatch = (what: string) =>
      out.push(
        diagnose(
          PUBLISHED_INDEX_MISMATCH,
          { dir, what, index: projectLayout.releaseIndex },
          { file: dir },
          { data: { version: entry.version } },
        ),
      );
    if (state.contentSha256 !== entry.contentSha256) mismatch(releaseFiles.manifest);
    const read = (rel: string) => readFile(path.join(abs, rel)).catch(() => Buffer.alloc(0));
    if (sha256Hex(await read(releaseFiles.snapshot)) !== entry.snapshotSha256)
      mismatch(releaseFiles.snapshot);
    if (entry.imported) out.push(...(await checkImportedRelease(abs, dir, entry)));
    else if (!entry.archives) mismatch("the archive hashes (the entry records none)");
    else out.push(...(await checkArchives(abs, dir, entry.archives, mismatch)));
  }
  return out;
}

/**
 * The archives of a release this toolchain built: their hashes match the entry, and rebuilding
 * them from the published package tree gives the same bytes (L5, L12.3).
 */
async function checkArchives(
  abs: string,
  dir: string,
  archives: NonNullable<ReleaseEntry["archives"]>,
  mismatch: (what: string) => void,
): Promise<Diagnostic[]> {
  const read = (rel: string) => readFile(path.join(abs, rel)).catch(() => Buffer.alloc(0));
  const tarGz = await read(releaseFiles.installBundle);
  const zip = await read(releaseFiles.submissionZip);
  if (sha256Hex(tarGz) !== archives["plugin-install-bundle.tar.gz"])
    mismatch(releaseFiles.installBundle);
  if (sha256Hex(zip) !== archives["directory-submission.zip"]) mismatch(releaseFiles.submissionZip);
  const tarHash = (() => {
    try {
      return sha256Hex(gunzipSync(tarGz));
    } catch {
      return "";
    }
  })();
  if (tarHash !== archives["plugin-install-bundle.tar"]) mismatch("the uncompressed tar");
  const rebuilt = await buildArchives(
    await collectTree(path.join(abs, releaseFiles.packageDir)).catch(() => []),
  );
  if (rebuilt.sha256.tar !== tarHash || rebuilt.sha256.zip !== sha256Hex(zip))
    return [
      diagnose(
        BUNDLE_NOT_REPRODUCIBLE,
        { dir, packageDir: releaseFiles.packageDir },
        { file: dir },
      ),
    ];
  return [];
}
