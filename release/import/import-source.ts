import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { renderSha256Manifest, sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { releaseFiles } from "../../contract-model/project/project-layout.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { IMPORT_INPUT_INVALID } from "./import.rules.js";
import { locateInBundle, locateInFiles, type LocatedRelease } from "./locate-release.js";
import { defaultArchiveLimits, megabytes, type ArchiveLimits } from "./archive-limits.js";
import { ArchiveError, archiveKind, readArchive, type ArchiveFile } from "./read-archive.js";

/** One original file of an import: its role, its file name and its bytes (kept as they are). */
export interface OriginalFile {
  role: "bundle" | "manifest" | "tools";
  name: string;
  data: Buffer;
}

/** The original files of an import: one install bundle, or a package manifest and a tools list. */
export type ImportSource =
  | { kind: "bundle"; bundle: OriginalFile }
  | { kind: "tools-manifest"; manifest: OriginalFile; tools: OriginalFile };

/** Where an original file is kept inside the published folder. */
export const keptPath = (f: { role: string; name: string }): string =>
  `imported/${f.role}/${f.name}`;

/** The originals of a source, in the order they are kept. */
export const originalsOf = (source: ImportSource): OriginalFile[] =>
  source.kind === "bundle" ? [source.bundle] : [source.manifest, source.tools];

/**
 * Read what an import source says about its release (manifest, tools list) and, for a bundle, its
 * files (for the UI pages it carries). Problems are diagnostics; `undefined` when nothing usable
 * was found. Used by the import and again by `verify` on the kept original bytes.
 */
export async function locateImport(
  source: ImportSource,
  diagnostics: Diagnostic[],
  limits: ArchiveLimits = defaultArchiveLimits,
): Promise<{ located?: LocatedRelease; files: ArchiveFile[] }> {
  if (source.kind === "tools-manifest")
    return {
      located: locateInFiles(source.manifest, source.tools, diagnostics),
      files: [],
    };
  const { name, data } = source.bundle;
  const kind = archiveKind(name);
  if (!kind) {
    diagnostics.push(
      diagnose(IMPORT_INPUT_INVALID, { variant: "kind", file: name }, { file: name }),
    );
    return { files: [] };
  }
  let files: ArchiveFile[];
  try {
    files = await readArchive(data, kind, limits);
  } catch (e) {
    if (!(e instanceof ArchiveError)) throw e;
    const beyond = e.beyond;
    diagnostics.push(
      diagnose(
        IMPORT_INPUT_INVALID,
        beyond?.cap === "entry"
          ? { variant: "entryBeyond", file: name, path: beyond.path!, mb: megabytes(beyond.bytes) }
          : beyond
            ? { variant: "expandsBeyond", file: name, mb: megabytes(beyond.bytes) }
            : { variant: "archive", file: name, error: e.message },
        { file: name },
      ),
    );
    return { files: [] };
  }
  return { located: locateInBundle(name, files, diagnostics), files };
}

/**
 * The folder an import writes: every original file under `imported/<role>/<name>` byte for byte,
 * the `extra` files, and a `SHA256SUMS` over them (its sha256 is the folder's content identity).
 */
export function keptFolder(
  source: ImportSource,
  extra: readonly BundleFile[] = [],
): {
  files: BundleFile[];
  contentSha256: string;
  originals: { name: string; path: string; sha256: string }[];
} {
  const originals = originalsOf(source);
  const files: BundleFile[] = [
    ...originals.map((f) => ({ path: keptPath(f), data: f.data, mode: 0o644 as const })),
    ...extra,
  ];
  const sums = Buffer.from(
    renderSha256Manifest(files.map((f) => ({ path: f.path, sha256: sha256Hex(f.data) }))),
    "utf8",
  );
  files.push({ path: releaseFiles.manifest, data: sums, mode: 0o644 });
  return {
    files,
    contentSha256: sha256Hex(sums),
    originals: originals.map((f) => ({
      name: f.name,
      path: keptPath(f),
      sha256: sha256Hex(f.data),
    })),
  };
}
