import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { renderSha256Manifest, sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { projectLayout, publishedDir, releaseFiles } from "../../contract-model/project-layout.js";
import {
  appendReleaseEntry,
  readReleaseIndex,
  type ReleaseEntry,
} from "../../contract-model/release-index.js";
import { readFreezeState } from "../../contract-model/review-freeze.js";
import { recordUiActivations, retainUiArtifact } from "../../contract-model/ui-store.js";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import type { ReleaseStepResult } from "../freeze/freeze.js";
import { pluginIdentityFile } from "../plugin-identity.js";
import { planLinePublication, writeLine } from "../publish/publish-line.js";
import { PUBLISHED_EXISTS, VERSION_NOT_NEWER } from "../publish/record-published.js";
import { writeReleaseDir } from "../write-release-dir.js";
import { importedSnapshot } from "./imported-contract.js";
import {
  IMPORT_HASH_MISMATCH,
  IMPORT_INPUT_INVALID,
  IMPORT_PACKAGE_NAME,
  IMPORT_VERSION_MISMATCH,
  IMPORT_WHILE_FROZEN,
} from "./import.rules.js";
import { resolveImportUi } from "./import-ui.js";
import { keptPath, locateImport, originalsOf, type ImportSource } from "./import-source.js";
import type { LocatedRelease } from "./locate-release.js";
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

/**
 * `skillpilot record-published X --import …` (L4): adopt a release published before this
 * toolchain recorded releases, from its install bundle or its submitted tools list and package
 * manifest, recording it append-only like `record-published` does: an immutable
 * `contracts/published/openai/<plugin>/X/` with the original bytes under `imported/`, a
 * `contract.snapshot.json` Contract-Diff reads as X's contract and a `SHA256SUMS`; a release index
 * entry marked `imported` with its provenance; the UI pages it binds retained and recorded; the
 * line moved to PUBLISHED. Refuses — writing nothing — unreadable or malformed input, bytes that
 * disagree with a hash they name, another version or package than the project's, and a version not
 * above every recorded one.
 */
export async function importRelease(
  root: string,
  version: string,
  files: ImportFiles,
  options: { publishedAt: string; now?: Date; limits?: ArchiveLimits },
): Promise<ImportResult> {
  const limits = options.limits ?? defaultArchiveLimits;
  const read = await readSource(root, files, limits);
  if ("diagnostics" in read) return read;
  const { source, label } = read;
  const diagnostics: Diagnostic[] = [];
  if (source.kind === "bundle" && files.kind === "bundle" && files.sha256) {
    const actual = sha256Hex(source.bundle.data);
    if (actual !== files.sha256.toLowerCase())
      return refuse(
        diagnose(
          IMPORT_HASH_MISMATCH,
          { variant: "bundle", file: label, actual, expected: files.sha256.toLowerCase() },
          { file: label },
        ),
      );
  }
  const { located, files: bundleFiles } = await locateImport(source, diagnostics, limits);
  if (!located || hasErrors(diagnostics))
    return {
      diagnostics,
      inputInvalid: diagnostics.some((d) => d.ruleId === IMPORT_INPUT_INVALID.id),
    };

  const plugin = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
    packageName: string;
    displayName: string;
    contractMajor: number;
  };
  const identity = await checkIdentity(root, version, located, label, plugin, diagnostics);
  const pages = await resolveImportUi(root, label, located, bundleFiles, diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics };
  const plan = await planLinePublication(root, version, identity.contractMajor);
  if (plan.diagnostics.length) return { diagnostics: [...diagnostics, ...plan.diagnostics] };
  const frozen = readFreezeState(root).active;
  if (plan.changed && frozen)
    return refuse(
      diagnose(
        IMPORT_WHILE_FROZEN,
        { version, lineFile: projectLayout.lineFile, frozen: frozen.version },
        { file: projectLayout.reviewFreeze },
      ),
    );

  const ui = Object.fromEntries(pages.map((p) => [p.name, p.uri]));
  const snapshot = importedSnapshot(located, { ...identity, version, ui });
  const originals = originalsOf(source);
  const folder: BundleFile[] = [
    ...originals.map((f) => ({ path: keptPath(f), data: f.data, mode: 0o644 as const })),
    { path: releaseFiles.snapshot, data: snapshot, mode: 0o644 },
  ];
  const sums = Buffer.from(
    renderSha256Manifest(folder.map((f) => ({ path: f.path, sha256: sha256Hex(f.data) }))),
    "utf8",
  );
  folder.push({ path: releaseFiles.manifest, data: sums, mode: 0o644 });
  const now = options.now ?? new Date();
  const entry: ReleaseEntry = {
    version,
    packageName: identity.packageName,
    displayName: identity.displayName,
    contractMajor: identity.contractMajor,
    publishedAt: options.publishedAt,
    contentSha256: sha256Hex(sums),
    snapshotSha256: sha256Hex(snapshot),
    ui,
    linePolicyRevision: located.policyRevision ?? plan.state!.policyRevision,
    line: plan.state,
    imported: {
      source: source.kind,
      importedAt: now.toISOString().slice(0, 10),
      files: originals.map((f) => ({ name: f.name, path: keptPath(f), sha256: sha256Hex(f.data) })),
      ...(source.kind === "bundle"
        ? { manifest: located.manifestPath, tools: located.toolsPath }
        : {}),
    },
  };

  for (const page of pages) if (page.html) await retainUiArtifact(root, page.uri, page.html);
  await recordUiActivations(
    root,
    pages.map(({ name, uri }) => ({ uri, name })),
  );
  const dir = publishedDir(identity.packageName, version);
  await writeReleaseDir(path.join(root, dir), folder, { replace: false });
  await appendReleaseEntry(root, entry);
  const written = await writeLine(root, plan);
  if (written.length) return { diagnostics: written };
  return {
    diagnostics,
    outcome: "done",
    message:
      `imported ${version} (${source.kind === "bundle" ? label : "tools list + manifest"}) into ` +
      `${dir} and ${projectLayout.releaseIndex}` +
      (plan.changed ? `; ${projectLayout.lineFile} is PUBLISHED` : ""),
  };
}

const refuse = (...diagnostics: Diagnostic[]): ImportResult => ({ diagnostics });

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

/**
 * The identity the import records, after checking it is this plugin at `version`, above every
 * recorded release, into a folder that does not exist yet. Findings go to `diagnostics`.
 */
async function checkIdentity(
  root: string,
  version: string,
  located: LocatedRelease,
  label: string,
  plugin: { packageName: string; displayName: string; contractMajor: number },
  diagnostics: Diagnostic[],
): Promise<{ packageName: string; displayName: string; contractMajor: number }> {
  const where = (p: string) => (label === p ? p : `${label}:${p}`);
  const claims: { file: string; name?: unknown; version?: unknown }[] = [
    { file: where(located.manifestPath), name: located.packageName, version: located.version },
  ];
  let snapshotPlugin: Record<string, unknown> = {};
  let snapshotMajor: unknown;
  if (located.snapshot) {
    const doc = JSON.parse(located.snapshot.toString("utf8")) as {
      plugin?: Record<string, unknown>;
      contractMajor?: unknown;
    };
    snapshotPlugin = doc.plugin ?? {};
    snapshotMajor = doc.contractMajor;
    claims.push({
      file: where(located.toolsPath),
      name: snapshotPlugin.packageName,
      version: snapshotPlugin.packageVersion,
    });
  }
  for (const claim of claims) {
    if (claim.version !== version)
      diagnostics.push(
        diagnose(
          IMPORT_VERSION_MISMATCH,
          { file: claim.file, found: claim.version ?? null, version },
          { file: claim.file },
        ),
      );
    if (claim.name !== plugin.packageName)
      diagnostics.push(
        diagnose(
          IMPORT_PACKAGE_NAME,
          { file: claim.file, found: claim.name ?? null, name: plugin.packageName },
          { file: claim.file },
        ),
      );
  }
  const index = await readReleaseIndex(root);
  const notBelow = index.releases
    .filter((r) => semver.valid(r.version) && !semver.gt(version, r.version))
    .map((r) => r.version);
  if (notBelow.length)
    diagnostics.push(
      diagnose(
        VERSION_NOT_NEWER,
        { version, published: notBelow.join(", ") },
        { file: projectLayout.releaseIndex },
      ),
    );
  const dir = publishedDir(plugin.packageName, version);
  if (!notBelow.length && (await lstat(path.join(root, dir)).catch(() => undefined)))
    diagnostics.push(
      diagnose(PUBLISHED_EXISTS, { variant: "imported", dir, version }, { file: dir }),
    );
  const major = located.contractMajor ?? snapshotMajor;
  return {
    packageName: plugin.packageName,
    displayName:
      located.displayName ??
      (typeof snapshotPlugin.displayName === "string" ? snapshotPlugin.displayName : undefined) ??
      plugin.displayName,
    contractMajor: Number.isInteger(major) ? (major as number) : plugin.contractMajor,
  };
}
