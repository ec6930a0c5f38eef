import { cp, lstat, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { toolchainAssetDirs } from "../contract-model/project/toolchain.js";

/**
 * The second step of `npm run build`: copy every asset folder of the toolchain
 * (`toolchainAssetDirs`) into `build/` as it is, replacing the previous copy, so the compiled code
 * reads the files beside itself (`build/ui/start-page/` for `build/runtime/http/`). Regular files
 * only: anything else in an asset folder fails the build.
 */
export async function buildAssets(root: string): Promise<string[]> {
  const copied: string[] = [];
  for (const dir of toolchainAssetDirs) {
    const from = path.join(root, dir);
    const to = path.join(root, "build", dir);
    await rm(to, { recursive: true, force: true });
    await mkdir(to, { recursive: true });
    for (const name of (await readdir(from)).sort()) {
      if (!(await lstat(path.join(from, name))).isFile())
        throw new Error(`${dir}/${name}: an asset folder holds regular files only`);
      await cp(path.join(from, name), path.join(to, name));
      copied.push(`${dir}/${name}`);
    }
  }
  return copied;
}

if (import.meta.url === `file://${process.argv[1]}`)
  await buildAssets(process.cwd()).catch((error: Error) => {
    process.stderr.write(`build assets: ${error.message}\n`);
    process.exitCode = 2;
  });
