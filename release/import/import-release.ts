import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import {
  projectLayout,
  publishedDir,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import {
  appendReleaseEntry,
  readReleaseIndex,
  type ReleaseEntry,
} from "../../contract-model/release/release-index.js";
import { readFreezeState } from "../../contract-model/release/review-freeze.js";
import { recordUiActivations, retainUiArtifact } from "../../contract-model/ui/ui-store.js";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { pluginIdentityFile, readFormerPackageNames } from "../plugin-identity.js";
import { planLinePublication, writeLine } from "../publish/publish-line.js";
import { PUBLISHED_EXISTS, VERSION_NOT_NEWER } from "../publish/record-published.js";
import { writeReleaseDir } from "../write-release-dir.js";
import { importedSnapshot } from "./imported-contract.js";
import {
  checkImportClaims,
  type ImportFiles,
  type ImportResult,
  readImportInput,
  snapshotPlugin,
} from "./import-input.js";
import { IMPORT_WHILE_FROZEN } from "./import.rules.js";
import { resolveImportUi } from "./import-ui.js";
import { keptFolder } from "./import-source.js";
import type { LocatedRelease } from "./locate-release.js";
import { defaultArchiveLimits, type ArchiveLimits } from "./archive-limits.js";
import { openStatement } from "../statement/approved-statement.js";

export type { ImportFiles, ImportResult } from "./import-input.js";

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
  options: { publishedAt: string; now?: Date; limits?: ArchiveLimits; releaseKey?: string },
): Promise<ImportResult> {
  const input = await readImportInput(root, files, options.limits ?? defaultArchiveLimits);
  if (!("located" in input)) return input;
  const { source, label, located, bundleFiles, diagnostics } = input;

  const plugin = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
    packageName: string;
    displayName: string;
    contractMajor: number;
  };
  const former = await readFormerPackageNames(root);
  const claimed = checkImportClaims(
    version,
    located,
    label,
    { permanent: plugin.packageName, former },
    diagnostics,
  );
  const identity = await checkIdentity(root, version, located, plugin, diagnostics);
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
  const folder = keptFolder(source, [{ path: releaseFiles.snapshot, data: snapshot, mode: 0o644 }]);
  const now = options.now ?? new Date();
  const entry: ReleaseEntry = {
    version,
    packageName: identity.packageName,
    displayName: identity.displayName,
    contractMajor: identity.contractMajor,
    publishedAt: options.publishedAt,
    contentSha256: folder.contentSha256,
    snapshotSha256: sha256Hex(snapshot),
    ui,
    linePolicyRevision: located.policyRevision ?? plan.state!.policyRevision,
    line: plan.state,
    imported: {
      source: source.kind,
      importedAt: now.toISOString().slice(0, 10),
      files: folder.originals,
      ...(source.kind === "bundle"
        ? { manifest: located.manifestPath, tools: located.toolsPath }
        : {}),
      ...claimed,
    },
  };

  const statement = await openStatement(root, { keyFile: options.releaseKey });
  if (!statement.writer) return refuse(...statement.diagnostics);
  for (const page of pages) if (page.html) await retainUiArtifact(root, page.uri, page.html);
  await recordUiActivations(
    root,
    pages.map(({ name, uri }) => ({ uri, name })),
  );
  const dir = publishedDir(identity.packageName, version);
  await writeReleaseDir(path.join(root, dir), folder.files, { replace: false });
  await appendReleaseEntry(root, entry);
  const written = await writeLine(root, plan);
  if (written.length) return { diagnostics: written };
  const signed = await statement.writer.append({ kind: "published", version }, options.publishedAt);
  return {
    diagnostics,
    outcome: "done",
    message:
      `imported ${version} (${source.kind === "bundle" ? label : "tools list + manifest"}) into ` +
      `${dir} and ${projectLayout.releaseIndex}` +
      (claimed.formerPackageName
        ? ` as history of ${identity.packageName} (published as ${claimed.formerPackageName})`
        : "") +
      (plan.changed ? `; ${projectLayout.lineFile} is PUBLISHED` : "") +
      `\n${signed}`,
  };
}

const refuse = (...diagnostics: Diagnostic[]): ImportResult => ({ diagnostics });

/**
 * The identity the import records (always the permanent package name: a release under a former
 * name is this plugin's history), after checking the version is above every recorded release, into
 * a folder that does not exist yet. Findings go to `diagnostics`.
 */
async function checkIdentity(
  root: string,
  version: string,
  located: LocatedRelease,
  plugin: { packageName: string; displayName: string; contractMajor: number },
  diagnostics: Diagnostic[],
): Promise<{ packageName: string; displayName: string; contractMajor: number }> {
  const shipped = located.snapshot ? snapshotPlugin(located.snapshot) : {};
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
  const major = located.contractMajor ?? shipped.contractMajor;
  return {
    packageName: plugin.packageName,
    displayName:
      located.displayName ??
      (typeof shipped.displayName === "string" ? shipped.displayName : undefined) ??
      plugin.displayName,
    contractMajor: Number.isInteger(major) ? (major as number) : plugin.contractMajor,
  };
}
