import { collectTree } from "../../../contract-model/file-tree/collect-tree.js";
import { sha256Hex } from "../../../contract-model/file-tree/sha256-manifest.js";

/**
 * Every file of a project as `path sha256` lines, sorted: equal digests mean a byte-identical tree
 * (used to prove that a refused command wrote nothing).
 */
export async function treeDigest(root: string): Promise<string> {
  return (await collectTree(root)).map((f) => `${f.path} ${sha256Hex(f.data)}`).join("\n");
}
