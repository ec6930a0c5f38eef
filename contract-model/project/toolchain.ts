import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The toolchain's own package manifest (name and version). */
export interface ToolchainPackage {
  name: string;
  version: string;
}

let cached: ToolchainPackage | undefined;

/**
 * The toolchain's package.json, found by walking up from this module: the same answer from the
 * TypeScript sources (`contract-model/`) and from the compiled build (`build/contract-model/`).
 */
export function toolchainPackage(): ToolchainPackage {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as
        | Partial<ToolchainPackage>
        | undefined;
      if (pkg?.name === "skillpilot-coach-toolchain" && typeof pkg.version === "string") {
        cached = { name: pkg.name, version: pkg.version };
        return cached;
      }
    } catch {
      // no package.json here: keep walking up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("the toolchain's package.json was not found");
    dir = parent;
  }
}

/**
 * Folders of the toolchain that its code reads as files, found beside the module that reads them:
 * `npm run build` copies each into `build/` as it is (`tools/build-assets.ts`), so the compiled
 * code finds its own copy, and `start` warns when a copy is older than its source.
 */
export const toolchainAssetDirs = ["ui/start-page"] as const;
