import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The toolchain's own package manifest (name and version). */
export interface ToolchainPackage {
  name: string;
  version: string;
}

let cached: { root: string; pkg: ToolchainPackage } | undefined;

/**
 * The toolchain's package.json and its folder, found by walking up from this module: the same
 * answer from the TypeScript sources (`contract-model/`) and from the compiled build
 * (`build/contract-model/`).
 */
function findToolchain(): { root: string; pkg: ToolchainPackage } {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as
        | Partial<ToolchainPackage>
        | undefined;
      if (pkg?.name === "skillpilot-coach-toolchain" && typeof pkg.version === "string") {
        cached = { root: dir, pkg: { name: pkg.name, version: pkg.version } };
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

/** The toolchain's package.json (name and version). */
export function toolchainPackage(): ToolchainPackage {
  return findToolchain().pkg;
}

/**
 * The toolchain's own folder (where its package.json is): the files it ships besides its code,
 * such as the start page under `ui/start-page/`, are found from here, whichever project it serves.
 */
export function toolchainRoot(): string {
  return findToolchain().root;
}
