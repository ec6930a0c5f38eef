import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildTar, gzipDeterministic } from "../../../release/bundle/tar.archive.js";
import { readArchive } from "../../../release/import/read-archive.js";
import { repoRoot } from "../../support/temp-project.js";

/** The reconstructed 1.1.2 release bytes (see test/fixtures/imported-release/README.md). */
export const importFixtures = path.join(repoRoot, "test/fixtures/imported-release");
export const fixtureBundle = path.join(importFixtures, "skillpilot-coach-1.1.2.tgz");

/**
 * The fixture bundle with some files changed or added, repacked as `incoming/<name>` of the project
 * (its SHA256SUMS kept as is unless `edit` changes it).
 */
export async function variantBundle(
  root: string,
  name: string,
  edit: (files: Map<string, Buffer>) => void,
): Promise<string> {
  const files = new Map(
    (await readArchive(await readFile(fixtureBundle), "tar.gz")).map((f) => [f.path, f.data]),
  );
  edit(files);
  const out = path.join(root, "incoming", name);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(
    out,
    gzipDeterministic(
      await buildTar([...files].map(([p, data]) => ({ path: p, data, mode: 0o644 as const }))),
    ),
  );
  return out;
}
