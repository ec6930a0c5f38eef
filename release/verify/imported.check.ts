import { readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { releaseFiles } from "../../contract-model/project/project-layout.js";
import type { ReleaseEntry } from "../../contract-model/release/release-index.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { importedSnapshot } from "../import/imported-contract.js";
import { locateImport, type ImportSource, type OriginalFile } from "../import/import-source.js";

const IMPORTED_RELEASE_MISMATCH = defineRule({
  id: "IMPORTED_RELEASE_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "An imported release no longer holds the original bytes its index entry names, or its " +
    "contract snapshot is not what those bytes give (L4).",
  message: {
    original: "{dir}: {file} ({name}) is missing or differs from its sha256 in {index}",
    source: "{dir}: the index entry names no usable original files ({why})",
    snapshot:
      "{dir}: {snapshot} is not the contract read from the kept original bytes ({names}); an imported release is never edited",
  },
});

/**
 * What can be checked of a release this toolchain did not build (its archives cannot be rebuilt):
 * every original file the entry names is kept with its sha256, and reading those bytes again
 * gives the recorded contract snapshot byte for byte. The folder's SHA256SUMS and the snapshot
 * hash are checked with every other published folder.
 */
export async function checkImportedRelease(
  abs: string,
  dir: string,
  entry: ReleaseEntry,
): Promise<Diagnostic[]> {
  const imported = entry.imported!;
  const out: Diagnostic[] = [];
  const originals: OriginalFile[] = [];
  for (const f of imported.files ?? []) {
    const data = await readFile(path.join(abs, f.path)).catch(() => undefined);
    if (!data || sha256Hex(data) !== f.sha256)
      out.push(
        diagnose(
          IMPORTED_RELEASE_MISMATCH,
          {
            variant: "original",
            dir,
            file: f.path,
            name: f.name,
            index: "contracts/release-index.json",
          },
          { file: `${dir}/${f.path}` },
        ),
      );
    else originals.push({ role: f.path.split("/")[1] as OriginalFile["role"], name: f.name, data });
  }
  if (out.length) return out;
  const role = (r: OriginalFile["role"]) => originals.find((o) => o.role === r);
  const bundle = role("bundle");
  const manifest = role("manifest");
  const tools = role("tools");
  const source: ImportSource | undefined =
    imported.source === "bundle" && bundle
      ? { kind: "bundle", bundle }
      : manifest && tools
        ? { kind: "tools-manifest", manifest, tools }
        : undefined;
  if (!source)
    return [
      diagnose(
        IMPORTED_RELEASE_MISMATCH,
        { variant: "source", dir, why: `source ${imported.source}, ${originals.length} file(s)` },
        { file: dir },
      ),
    ];
  const { located } = await locateImport(source, []);
  const recorded = await readFile(path.join(abs, releaseFiles.snapshot)).catch(() => undefined);
  const derived = located
    ? importedSnapshot(located, {
        packageName: entry.packageName,
        displayName: entry.displayName,
        version: entry.version,
        contractMajor: entry.contractMajor,
        ui: entry.ui ?? {},
      })
    : undefined;
  if (!derived || !recorded?.equals(derived))
    out.push(
      diagnose(
        IMPORTED_RELEASE_MISMATCH,
        {
          variant: "snapshot",
          dir,
          snapshot: releaseFiles.snapshot,
          names: originals.map((o) => o.name).join(", "),
        },
        { file: `${dir}/${releaseFiles.snapshot}` },
      ),
    );
  return out;
}
