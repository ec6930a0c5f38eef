import { collectTree } from "../../contract-model/file-tree/collect-tree.js";
import { renderSha256Manifest, sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";

/**
 * The skills tree as it ships (L7): its files, the sorted `sha256 path` manifest and the manifest's
 * own sha256.
 */
export interface SkillTree {
  files: { path: string; data: Buffer }[];
  manifest: string;
  sha256: string;
}

/**
 * Read a skills directory the way the bundle freezes it: regular files only (a symlink or device
 * throws), paths sorted by UTF-8 bytes, content hashed — so the same tree hashes the same on every
 * checkout whatever its mtimes, permissions or umask.
 */
export async function readSkillTree(dir: string): Promise<SkillTree> {
  const files = await collectTree(dir);
  const manifest = renderSha256Manifest(
    files.map((f) => ({ path: f.path, sha256: sha256Hex(f.data) })),
  );
  return {
    files: files.map((f) => ({ path: f.path, data: f.data })),
    manifest,
    sha256: sha256Hex(manifest),
  };
}
