import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import type { ReleaseStepResult } from "../freeze/freeze.js";
import {
  IMPORT_HASH_MISMATCH,
  IMPORT_INPUT_INVALID,
  IMPORT_PACKAGE_NAME,
  IMPORT_VERSION_MISMATCH,
} from "./import.rules.js";
import { locateImport, type ImportSource } from "./import-source.js";
import type { LocatedRelease } from "./locate-release.js";
import type { ArchiveFile } from "./read-archive.js";
import { defaultArchiveLimits, megabytes, type ArchiveLimits } from "./archive-limits.js";

/** Where the bytes of an import come from, as the command line names them (absolute paths). */
export type ImportFiles =
  | { kind: "bundle"; bundle: string; sha256?: string }
  | { kind: "tools-manifest"; tools: string; manifest: string };

/** A refusal, a no-op or a record; `inputInvalid` when the input itself could not be read. */
export interface ImportResult extends ReleaseStepResult {
  /** True when a refusal is about unreadable or malformed input (the CLI exits 2, not 1). */
  inputInvalid?: boolean;
}

/** The original files of an import, read and located. */
export interface ImportInput {
  source: ImportSource;
  /** How findings name the input: the bundle's or the manifest's file name. */
  label: string;
  located: LocatedRelease;
  /** A bundle's files (its UI pages); empty for a tools list + manifest. */
  bundleFiles: ArchiveFile[];
  /** Findings that do not stop the import (warnings). */
  diagnostics: Diagnostic[];
}

/**
 * Read the original files an import names and what they say about their release: unreadable or
 * malformed input (exit 2), a bundle that disagrees with the `--sha256` given or its own
 * SHA256SUMS (exit 1) are a refusal.
 */
export async function readImportInput(
  root: string,
  files: ImportFiles,
  limits: ArchiveLimits = defaultArchiveLimits,
): Promise<ImportInput | ImportResult> {
  const read = await readSource(root, files, limits);
  if ("diagnostics" in read) return read;
  const { source, label } = read;
  if (source.kind === "bundle" && files.kind === "bundle" && files.sha256) {
    const actual = sha256Hex(source.bundle.data);
    const expected = files.sha256.toLowerCase();
    if (actual !== expected)
      return {
        diagnostics: [
          diagnose(
            IMPORT_HASH_MISMATCH,
            { variant: "bundle", file: label, actual, expected },
            { file: label },
          ),
        ],
      };
  }
  const diagnostics: Diagnostic[] = [];
  const { located, files: bundleFiles } = await locateImport(source, diagnostics, limits);
  if (!located || hasErrors(diagnostics))
    return {
      diagnostics,
      inputInvalid: diagnostics.some((d) => d.ruleId === IMPORT_INPUT_INVALID.id),
    };
  return { source, label, located, bundleFiles, diagnostics };
}

/**
 * Check that the release is `version` of this plugin: its manifest (and a contract snapshot it
 * ships) carry `version` and the permanent package name or a former one declared in
 * schemas/plugin.json. Findings go to `diagnostics`; returns the former name the manifest carries,
 * if it is one.
 */
export function checkImportClaims(
  version: string,
  located: LocatedRelease,
  label: string,
  names: { permanent: string; former: readonly string[] },
  diagnostics: Diagnostic[],
): { formerPackageName?: string } {
  const where = (p: string) => (label === p ? p : `${label}:${p}`);
  const claims: { file: string; name?: unknown; version?: unknown }[] = [
    { file: where(located.manifestPath), name: located.packageName, version: located.version },
  ];
  if (located.snapshot) {
    const plugin = snapshotPlugin(located.snapshot);
    claims.push({
      file: where(located.toolsPath),
      name: plugin.packageName,
      version: plugin.packageVersion,
    });
  }
  const allowed = new Set([names.permanent, ...names.former]);
  for (const claim of claims) {
    if (claim.version !== version)
      diagnostics.push(
        diagnose(
          IMPORT_VERSION_MISMATCH,
          { file: claim.file, found: claim.version ?? null, version },
          { file: claim.file },
        ),
      );
    if (typeof claim.name !== "string" || !allowed.has(claim.name))
      diagnostics.push(
        diagnose(
          IMPORT_PACKAGE_NAME,
          {
            file: claim.file,
            found: claim.name ?? null,
            name: names.permanent,
            former: names.former.length ? names.former.join(", ") : "none",
          },
          { file: claim.file },
        ),
      );
  }
  return names.former.includes(located.packageName)
    ? { formerPackageName: located.packageName }
    : {};
}

/** The `plugin` object and `contractMajor` of a contract snapshot a release shipped. */
export function snapshotPlugin(snapshot: Buffer): Record<string, unknown> & {
  contractMajor?: unknown;
} {
  const doc = JSON.parse(snapshot.toString("utf8")) as {
    plugin?: Record<string, unknown>;
    contractMajor?: unknown;
  };
  return { ...(doc.plugin ?? {}), contractMajor: doc.contractMajor };
}

/**
 * Read the original files; one that cannot be read is input the import cannot use, and so is one
 * larger than the caps (a bundle beyond the expanded cap, a manifest or tools list beyond the
 * per-file cap), refused before its bytes are read.
 */
async function readSource(
  root: string,
  files: ImportFiles,
  limits: ArchiveLimits,
): Promise<{ source: ImportSource; label: string } | ImportResult> {
  const shown = (abs: string) => {
    const rel = path.relative(root, abs).split(path.sep).join("/");
    return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
  };
  const load = async (role: "bundle" | "manifest" | "tools", abs: string) => {
    const info = await lstat(abs).catch((e: Error) => e);
    const [cap, flag] =
      role === "bundle"
        ? [limits.maxExpandedBytes, "--max-expanded-mb"]
        : [limits.maxEntryBytes, "--max-entry-mb"];
    if (!(info instanceof Error) && info.isFile() && info.size > cap)
      return diagnose(
        IMPORT_INPUT_INVALID,
        { variant: "tooLarge", file: shown(abs), mb: megabytes(cap), flag },
        { file: shown(abs) },
      );
    const data =
      info instanceof Error || !info.isFile()
        ? undefined
        : await readFile(abs).catch(() => undefined);
    if (data) return { role, name: path.basename(abs), data };
    const error = info instanceof Error ? info.message : "not a regular file";
    return diagnose(
      IMPORT_INPUT_INVALID,
      { variant: "unreadable", file: shown(abs), error },
      { file: shown(abs) },
    );
  };
  const loaded =
    files.kind === "bundle"
      ? [await load("bundle", files.bundle)]
      : [await load("manifest", files.manifest), await load("tools", files.tools)];
  const failed = loaded.filter((l): l is Diagnostic => "ruleId" in l);
  if (failed.length) return { diagnostics: failed, inputInvalid: true };
  const [first, second] = loaded as Exclude<(typeof loaded)[number], Diagnostic>[];
  return files.kind === "bundle"
    ? { source: { kind: "bundle", bundle: first }, label: first.name }
    : { source: { kind: "tools-manifest", manifest: first, tools: second }, label: first.name };
}
