import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toolchainAssetDirs } from "../contract-model/project/toolchain.js";

/** TypeScript's incremental build record: every compiled file and the sha256 of its text. */
interface BuildInfo {
  fileNames?: string[];
  fileInfos?: (string | { version?: string })[];
}

/** The toolchain folder this module runs from, when it runs compiled (build/bin/…). */
function compiledToolRoot(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === "bin" && path.basename(path.dirname(here)) === "build"
    ? path.dirname(path.dirname(here))
    : undefined;
}

/**
 * The sources that changed since the compiled build in `build/` was made (repository-relative,
 * sorted): each file the build compiled whose text no longer has the sha256 TypeScript recorded in
 * `build/.tsbuildinfo`, and each file of an asset folder whose copy in `build/` differs from it (or
 * is missing on either side). Empty when the build is current, when this runs from the sources
 * (tsx), or when the sources are not there to compare (an installed package).
 */
export async function changedSinceBuild(toolRoot = compiledToolRoot()): Promise<string[]> {
  if (!toolRoot) return [];
  const buildDir = path.join(toolRoot, "build");
  let info: BuildInfo;
  try {
    info = JSON.parse(await readFile(path.join(buildDir, ".tsbuildinfo"), "utf8")) as BuildInfo;
  } catch {
    return [];
  }
  const changed: string[] = [];
  await Promise.all(
    (info.fileNames ?? []).map(async (name, i) => {
      if (name.includes("node_modules")) return;
      const entry = info.fileInfos?.[i];
      const recorded = typeof entry === "string" ? entry : entry?.version;
      const abs = path.resolve(buildDir, name);
      const text = await readFile(abs, "utf8").catch(() => undefined);
      if (recorded === undefined || text === undefined) return;
      if (createHash("sha256").update(text).digest("hex") !== recorded)
        changed.push(path.relative(toolRoot, abs).split(path.sep).join("/"));
    }),
  );
  for (const dir of toolchainAssetDirs) changed.push(...(await changedAssets(toolRoot, dir)));
  return changed.sort();
}

/** The files of one asset folder whose copy in `build/` is not the source's (none without sources). */
async function changedAssets(toolRoot: string, dir: string): Promise<string[]> {
  const names = (at: string) => readdir(at).catch(() => undefined);
  const source = await names(path.join(toolRoot, dir));
  if (!source) return [];
  const copy = (await names(path.join(toolRoot, "build", dir))) ?? [];
  const changed: string[] = [];
  for (const name of new Set([...source, ...copy])) {
    const [a, b] = await Promise.all(
      [toolRoot, path.join(toolRoot, "build")].map((base) =>
        readFile(path.join(base, dir, name)).catch(() => undefined),
      ),
    );
    if (!a || !b || !a.equals(b)) changed.push(`${dir}/${name}`);
  }
  return changed;
}

/**
 * The pages under `ui/` of the project at `root` that build to another URI than release/line.json
 * activates: edited but not activated, so the server keeps serving the active bytes.
 */
export async function unactivatedUi(root: string): Promise<string[]> {
  const { buildAllUi } = await import("../release/ui/build-ui.js");
  const { readPluginContractMajor } = await import("../release/plugin-identity.js");
  try {
    const { projectLayout } = await import("../contract-model/project/project-layout.js");
    const line = JSON.parse(await readFile(path.join(root, projectLayout.lineFile), "utf8")) as {
      activeUi?: Record<string, string>;
    };
    const built = await buildAllUi(root, await readPluginContractMajor(root));
    return built
      .filter((page) => line.activeUi?.[page.name] && line.activeUi[page.name] !== page.uri)
      .map((page) => page.name);
  } catch {
    return [];
  }
}

/** `start`'s warnings about what it would serve out of date (empty: all current). */
export async function staleServeWarnings(root: string): Promise<string[]> {
  const [changed, pages] = await Promise.all([changedSinceBuild(), unactivatedUi(root)]);
  const warnings: string[] = [];
  if (pages.length)
    warnings.push(
      `ui/${pages.join(", ui/")} changed since it was activated; the server serves the active ` +
        "page. Run `npx skillpilot ui build --activate`, then `npm run build`.",
    );
  if (changed.length) {
    const shown = changed.slice(0, 3).join(", ");
    const more = changed.length > 3 ? ` and ${changed.length - 3} more` : "";
    warnings.push(
      `the compiled build in build/ is older than its sources (${shown}${more} changed since ` +
        "it was built), so this server runs the old code. Run `npm run build` (`npm start` does).",
    );
  }
  return warnings;
}
