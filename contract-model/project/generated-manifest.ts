import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../canonical.js";
import { projectLayout } from "./project-layout.js";

/** `generated/manifest.gen.json`: sha256 of every source the generator read and file it wrote. */
export const generatedManifestFile = `${projectLayout.generatedDir}/manifest.gen.json`;

interface GeneratedManifest {
  outputs: Record<string, string>;
  sources: Record<string, string>;
}

/** Why `generated/` no longer matches what produced it; empty when it still does. */
export interface Staleness {
  /** Sources edited, added or removed since the last `generate`. */
  sources: string[];
  /** Generated files edited by hand since (their bytes are not what `generate` wrote). */
  outputs: string[];
}

async function jsonFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...(await jsonFiles(root, rel)));
    else if (e.isFile() && e.name.endsWith(".json")) out.push(rel);
  }
  return out;
}

/**
 * Compare `generated/` with the sources it was generated from, using its manifest: `undefined`
 * when the project has no manifest (nothing to judge, e.g. a copied snapshot alone).
 */
export async function generatedStaleness(root: string): Promise<Staleness | undefined> {
  const text = await readFile(path.join(root, generatedManifestFile), "utf8").catch(
    () => undefined,
  );
  if (text === undefined) return undefined;
  let manifest: GeneratedManifest;
  try {
    manifest = JSON.parse(text) as GeneratedManifest;
  } catch {
    return { sources: [], outputs: [generatedManifestFile] };
  }
  const hashOf = (rel: string) => readFile(path.join(root, rel)).then(sha256Hex, () => undefined);
  const changed = async (entries: Record<string, string>) =>
    (
      await Promise.all(
        Object.entries(entries).map(async ([file, sha]) =>
          (await hashOf(file)) === sha ? undefined : file,
        ),
      )
    ).filter((f): f is string => f !== undefined);
  const added = (await jsonFiles(root, projectLayout.schemasDir)).filter(
    (f) => !(f in (manifest.sources ?? {})),
  );
  return {
    sources: [...(await changed(manifest.sources ?? {})), ...added].sort(),
    outputs: (await changed(manifest.outputs ?? {})).sort(),
  };
}
