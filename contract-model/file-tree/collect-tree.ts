import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sortBundleFiles, type BundleFile } from "./bundle-file.js";

/** Thrown when a tree holds something an archive must not carry (symlink, device, socket, FIFO). */
export class BundleInputError extends Error {
  override name = "BundleInputError";
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CollectOptions {
  /** Archive paths (relative to the tree root) that get mode 0755; every other file gets 0644. */
  isExecutable?: (relPath: string) => boolean;
}

/**
 * Read a directory tree as bundle files. Walks with `lstat` so a symlink is seen as one and
 * refused, keeps regular files only, ignores disk permissions and mtimes, and returns files in
 * archive order.
 */
export async function collectTree(
  root: string,
  options: CollectOptions = {},
): Promise<BundleFile[]> {
  const files: BundleFile[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const abs = path.join(dir, name);
      const relPath = rel ? `${rel}/${name}` : name;
      const stat = await lstat(abs);
      if (stat.isDirectory()) await walk(abs, relPath);
      else if (stat.isFile())
        files.push({
          path: relPath,
          data: await readFile(abs),
          mode: options.isExecutable?.(relPath) ? 0o755 : 0o644,
        });
      else
        throw new BundleInputError(
          abs,
          `${abs}: ${describe(stat)} cannot be bundled; archives hold regular files only`,
        );
    }
  };
  const top = await lstat(root).catch(() => undefined);
  if (!top) throw new BundleInputError(root, `${root}: no such directory`);
  if (!top.isDirectory())
    throw new BundleInputError(root, `${root}: ${describe(top)} is not a directory`);
  await walk(root, "");
  return sortBundleFiles(files);
}

function describe(stat: Awaited<ReturnType<typeof lstat>>): string {
  if (stat.isSymbolicLink()) return "a symbolic link";
  if (stat.isBlockDevice() || stat.isCharacterDevice()) return "a device";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  if (stat.isFile()) return "a regular file";
  return "a special file";
}
