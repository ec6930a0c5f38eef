import assert from "node:assert/strict";
import { collectTree } from "../../../contract-model/file-tree/collect-tree.js";
import { sha256Hex } from "../../../contract-model/file-tree/sha256-manifest.js";

/**
 * Every file of a project as `path sha256` lines, sorted: equal digests mean a byte-identical tree
 * (used to prove that a refused command wrote nothing).
 */
export async function treeDigest(root: string): Promise<string> {
  return (await collectTree(root)).map((f) => `${f.path} ${sha256Hex(f.data)}`).join("\n");
}

/** Run a refused command and assert its exit code, its rule and that the project did not change. */
export async function assertRefused(
  root: string,
  run: () => { code: number | null; stderr: string },
  code: number,
  rule: RegExp,
): Promise<void> {
  const before = await treeDigest(root);
  const refused = run();
  assert.equal(refused.code, code, refused.stderr);
  assert.match(refused.stderr, rule);
  assert.equal(await treeDigest(root), before, "a refusal writes nothing");
}
