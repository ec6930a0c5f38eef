import { readFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJsonCompact, sha256Hex } from "../canonical.js";
import { BundleInputError, collectTree } from "../file-tree/collect-tree.js";
import { renderSha256Manifest } from "../file-tree/sha256-manifest.js";
import { projectLayout } from "../project/project-layout.js";
import { toolchainAssetDirs } from "../project/toolchain.js";

/** Format tag of a recorded server build identity. */
export const serverBuildFormat = "skillpilot-server-build/1";

/**
 * The layers of what the server runs, each hashed on its own so a change can be named:
 * - `code`: every file under `runtime/` and every module outside it that the runtime's sources
 *   import (followed transitively: `contract-model/canonical.ts`, `json-schema/ajv.ts`, …), so a
 *   toolchain-only change (checks, release, CLI help) is not a server change;
 * - `generated`: `generated/` — descriptors, validators, handler interfaces and identity the
 *   runtime imports, and the snapshot;
 * - `curricula`: `curricula/` — the curriculum and its schema the runtime loads;
 * - `skills`: `skills/` — the SKILL.md trees the reviewed package ships with the server;
 * - `ui`: the UI store `contracts/ui/` — the only pages the server serves;
 * - `dependencies`: the production packages of `package-lock.json` (name, version, integrity), so a
 *   dependency upgrade is a change and a dev-tool upgrade is not;
 * - `compiled`: what Node actually runs of the `code` layer — each source's compiled file under
 *   `build/` (present when the project was built) — so a hand-edited compiled file is a change
 *   although its source is not.
 * The `code` layer follows the start path too: the launcher `bin/skillpilot.js`, the CLI's entry and
 * `start` command (`bin/skillpilot.ts`, `bin/program.ts`, `bin/commands/start.command.ts`) and what
 * that command imports.
 * Deployment settings (`skillpilot.config.json`, environment) and the contract line
 * (`release/line.json`, whose axes move by their own gated transitions) are not build layers.
 */
export const serverBuildLayers = [
  "code",
  "generated",
  "curricula",
  "skills",
  "ui",
  "dependencies",
  "compiled",
] as const;
export type ServerBuildLayerName = (typeof serverBuildLayers)[number];

/** One layer: a sha256 over its sorted `sha256  path` lines, and each file's hash. */
export interface ServerBuildLayer {
  sha256: string;
  /** Root-relative posix path (for `dependencies`: the lockfile's package path) → sha256. */
  files: Record<string, string>;
}

/** The server build identity of a project: one hash over the layers' hashes, and the layers. */
export interface ServerBuild {
  format: string;
  sha256: string;
  layers: Record<ServerBuildLayerName, ServerBuildLayer>;
}

/** What differs between two builds, per layer: the files added, removed or changed. */
export interface ServerBuildChange {
  layer: ServerBuildLayerName;
  files: string[];
}

/**
 * The server build identity of the project at `root` (§10.2: a review freeze locks runtime
 * behaviour): file contents only — never mtimes, modes or the order of a directory listing — hashed
 * per layer in UTF-8 path order. A missing tree is an empty layer. Throws on a symlink or special
 * file inside a layer (the build is then not a set of files).
 */
export async function serverBuildIdentity(root: string): Promise<ServerBuild> {
  const tree = async (dir: string): Promise<Record<string, string>> => {
    try {
      const files = await collectTree(path.join(root, dir));
      return Object.fromEntries(files.map((f) => [`${dir}/${f.path}`, sha256Hex(f.data)]));
    } catch (e) {
      if (e instanceof BundleInputError && /no such directory/.test(e.message)) return {};
      throw e;
    }
  };
  const code = await tree("runtime");
  // The start path within the CLI (what it reaches of the runtime is the runtime's own closure).
  Object.assign(code, await existingFiles(root, startPathFiles));
  // The runtime's own assets (the start page), read from beside its compiled code.
  for (const dir of toolchainAssetDirs) Object.assign(code, await tree(dir));
  Object.assign(code, await importedModules(root, Object.keys(code).filter(isRuntime)));
  const files: Record<ServerBuildLayerName, Record<string, string>> = {
    code,
    generated: await tree(projectLayout.generatedDir),
    curricula: await tree(path.posix.dirname(projectLayout.curriculumFile)),
    skills: await tree(projectLayout.skillsDir),
    ui: await tree(projectLayout.uiStore),
    dependencies: await productionPackages(root),
    compiled: await existingFiles(root, Object.keys(code).flatMap(compiledFile)),
  };
  const layers = Object.fromEntries(
    serverBuildLayers.map((name) => [name, layerOf(files[name])]),
  ) as Record<ServerBuildLayerName, ServerBuildLayer>;
  return {
    format: serverBuildFormat,
    sha256: sha256Hex(serverBuildLayers.map((n) => `${layers[n].sha256}  ${n}\n`).join("")),
    layers,
  };
}

/**
 * The layers and files in which `now` differs from `then` (empty when the builds are equal). A layer
 * `then` does not record (a build identity from before the layer existed) is not compared.
 */
export function serverBuildChanges(then: ServerBuild, now: ServerBuild): ServerBuildChange[] {
  const out: ServerBuildChange[] = [];
  for (const layer of serverBuildLayers) {
    const a = then.layers?.[layer];
    const b = now.layers[layer];
    if (!a || a.sha256 === b.sha256) continue;
    const before = a?.files ?? {};
    const names = [...new Set([...Object.keys(before), ...Object.keys(b.files)])].sort();
    out.push({ layer, files: names.filter((n) => before[n] !== b.files[n]) });
  }
  return out;
}

/**
 * One line naming what changed: `code (runtime/domain/x.ts), curricula (2 files: a, b)`; at most
 * three files per layer are named.
 */
export function describeBuildChanges(changes: readonly ServerBuildChange[]): string {
  return changes
    .map(({ layer, files }) => {
      if (files.length === 0) return layer;
      const named = files.slice(0, 3).join(", ");
      const more = files.length > 3 ? `, +${files.length - 3} more` : "";
      return `${layer} (${named}${more})`;
    })
    .join(", ");
}

function layerOf(files: Record<string, string>): ServerBuildLayer {
  const sorted = Object.fromEntries(
    Object.entries(files).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
  );
  return {
    sha256: sha256Hex(
      renderSha256Manifest(Object.entries(sorted).map(([p, sha256]) => ({ path: p, sha256 }))),
    ),
    files: sorted,
  };
}

const isRuntime = (file: string) => file.startsWith("runtime/");

/** The files `skillpilot start` runs before the runtime: the launcher, the CLI and its command. */
const startPathFiles = [
  "bin/skillpilot.js",
  "bin/skillpilot.ts",
  "bin/program.ts",
  "bin/commands/start.command.ts",
  "bin/runtime-options.ts",
  "bin/start-banner.ts",
  "bin/build-freshness.ts",
];

/**
 * What runs of a source: its compiled file under `build/` (`runtime/x.ts` → `build/runtime/x.js`),
 * an asset's copy there, nothing for the launcher (run as it is).
 */
function compiledFile(source: string): string[] {
  if (/\.d\.ts$/.test(source)) return [];
  if (/\.ts$/.test(source)) return [`build/${source.replace(/\.ts$/, ".js")}`];
  return toolchainAssetDirs.some((dir) => source.startsWith(`${dir}/`)) ? [`build/${source}`] : [];
}

/** The hashes of those of `files` that exist (root-relative posix paths). */
async function existingFiles(
  root: string,
  files: readonly string[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of files) {
    const data = await readFile(path.join(root, file)).catch(() => undefined);
    if (data) out[file] = sha256Hex(data);
  }
  return out;
}

const importSpecifier = /\b(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g;

/**
 * Files outside `runtime/` (and outside `generated/`, a layer of its own) that the runtime's
 * sources import, followed transitively; `.js` specifiers resolve to the `.ts` source beside them.
 */
async function importedModules(root: string, start: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const seen = new Set(start);
  const queue = [...start];
  const read = (rel: string) => readFile(path.join(root, rel)).catch(() => undefined);
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (!/\.(ts|js|mjs)$/.test(file)) continue;
    const text = (await read(file))?.toString("utf8") ?? "";
    for (const m of text.matchAll(importSpecifier)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
      const top = target.split("/")[0];
      if (top === "runtime" || top === projectLayout.generatedDir || top === "..") continue;
      const source = target.replace(/\.js$/, ".ts");
      const [rel, data] = (await read(source))
        ? [source, await read(source)]
        : [target, await read(target)];
      if (!data || seen.has(rel)) continue;
      seen.add(rel);
      out[rel] = sha256Hex(data);
      queue.push(rel);
    }
  }
  return out;
}

/** `package-lock.json` packages that are not dev-only: package path → hash of version + integrity. */
async function productionPackages(root: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(root, "package-lock.json"), "utf8").catch(() => undefined);
  if (text === undefined) return {};
  const lock = JSON.parse(text) as { packages?: Record<string, Record<string, unknown>> };
  const out: Record<string, string> = {};
  for (const [name, pkg] of Object.entries(lock.packages ?? {}))
    if (name !== "" && pkg.dev !== true)
      out[name] = sha256Hex(
        canonicalJsonCompact({
          version: pkg.version ?? null,
          resolved: pkg.resolved ?? null,
          integrity: pkg.integrity ?? null,
          link: pkg.link ?? null,
        }),
      );
  return out;
}
