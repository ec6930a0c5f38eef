import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BundleFile } from "../contract-model/file-tree/bundle-file.js";

/**
 * Write a whole release folder at once: into a sibling temp folder first, then swapped in, so a
 * reader never sees half a draft. `replace:false` refuses to touch an existing folder.
 */
export async function writeReleaseDir(
  absDir: string,
  files: readonly BundleFile[],
  options: { replace: boolean },
): Promise<void> {
  const tmp = `${absDir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  for (const f of files) {
    const abs = path.join(tmp, ...f.path.split("/"));
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, f.data, { mode: f.mode });
  }
  await mkdir(path.dirname(absDir), { recursive: true });
  if (options.replace) await rm(absDir, { recursive: true, force: true });
  try {
    await rename(tmp, absDir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
}
