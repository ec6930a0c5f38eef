import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { BundleInputError, collectTree } from "../contract-model/file-tree/collect-tree.js";
import { parseSha256Manifest, sha256Hex } from "../contract-model/file-tree/sha256-manifest.js";
import { releaseFiles } from "../contract-model/project/project-layout.js";

/** What a draft or published folder on disk holds, checked against its own SHA256SUMS. */
export interface ReleaseDirState {
  /** False when the folder does not exist. */
  exists: boolean;
  /**
   * sha256 of the SHA256SUMS bytes: the folder's content identity (undefined without a manifest).
   */
  contentSha256?: string;
  /**
   * Every way the folder disagrees with its manifest (missing, extra, altered or non-regular
   * files).
   */
  problems: string[];
  /** Hash of each file listed in the manifest, by folder-relative path. */
  listed: Map<string, string>;
}

/**
 * Read a release folder and compare every file with its manifest. Never throws for content
 * problems.
 */
export async function inspectReleaseDir(absDir: string): Promise<ReleaseDirState> {
  const listed = new Map<string, string>();
  if (!(await lstat(absDir).catch(() => undefined))) return { exists: false, problems: [], listed };
  let files: Awaited<ReturnType<typeof collectTree>>;
  try {
    files = await collectTree(absDir);
  } catch (e) {
    if (e instanceof BundleInputError) return { exists: true, problems: [e.message], listed };
    throw e;
  }
  const manifestBytes = await readFile(path.join(absDir, releaseFiles.manifest)).catch(
    () => undefined,
  );
  if (!manifestBytes)
    return { exists: true, problems: [`${releaseFiles.manifest} is missing`], listed };
  const { entries, malformed } = parseSha256Manifest(manifestBytes.toString("utf8"));
  const problems = malformed.map(
    (l) => `${releaseFiles.manifest}: malformed line ${JSON.stringify(l)}`,
  );
  for (const e of entries) listed.set(e.path, e.sha256);
  const onDisk = new Set<string>();
  for (const f of files) {
    if (f.path === releaseFiles.manifest) continue;
    onDisk.add(f.path);
    const want = listed.get(f.path);
    if (want === undefined) problems.push(`${f.path} is not listed in ${releaseFiles.manifest}`);
    else if (want !== sha256Hex(f.data))
      problems.push(`${f.path} does not match its sha256 in ${releaseFiles.manifest}`);
  }
  for (const p of listed.keys())
    if (!onDisk.has(p)) problems.push(`${p} is listed in ${releaseFiles.manifest} but missing`);
  return { exists: true, contentSha256: sha256Hex(manifestBytes), problems, listed };
}
