import { lstat } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { ContractSnapshot } from "../../contract-model/snapshot.js";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { checkGenerated } from "../../generator/write.js";
import { buildArchives } from "../bundle/archives.js";
import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { BundleInputError, collectTree } from "../../contract-model/file-tree/collect-tree.js";
import { renderSha256Manifest, sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { releaseFiles } from "../../contract-model/project/project-layout.js";
import { checkLine, lineFile } from "../line/check-line.js";
import { buildAllUi, UiBuildError, type UiArtifact } from "../ui/build-ui.js";
import { resolveUiResource } from "../ui/resolve-ui.js";
import { parseUiUri } from "../../contract-model/ui/ui-uri.js";
import { buildSubmissionPack } from "../submission/submission-pack.js";
import { packageTree } from "./package-tree.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

const RELEASE_VERSION_INVALID = defineRule({
  id: "RELEASE_VERSION_INVALID",
  family: "release",
  severity: "error",
  summary: "A release version must be SemVer x.y.z (L2).",
  message: "release version {version:json} is not a plain SemVer x.y.z",
});
const RELEASE_VERSION_MISMATCH = defineRule({
  id: "RELEASE_VERSION_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "The release version must equal packageVersion in schemas/plugin.json; bump " +
    "it there first (L12.1).",
  message:
    "release version {version} differs from packageVersion {packageVersion}: set packageVersion " +
    "to {version} in schemas/plugin.json and run `skillpilot generate`, or run " +
    "`skillpilot prepare` without --version to draft {packageVersion}",
});
const BUNDLE_INPUT_INVALID = defineRule({
  id: "BUNDLE_INPUT_INVALID",
  family: "release",
  severity: "error",
  summary: "A bundled tree holds something other than regular files (L5).",
  message: "{error}",
});
const SKILLS_MISSING = defineRule({
  id: "SKILLS_MISSING",
  family: "release",
  severity: "warning",
  summary: "No skills/ tree to freeze into the package (L7).",
  message: "skills/ does not exist; the package ships without skills",
});
const UI_BUILD_FAILED = defineRule({
  id: "UI_BUILD_FAILED",
  family: "release",
  severity: "error",
  summary: "A ui/<name>/ source cannot be built into one self-contained page (L10).",
  message: "{error}",
});
const UI_URI_UNRESOLVED = defineRule({
  id: "UI_URI_UNRESOLVED",
  family: "release",
  severity: "error",
  summary:
    "A UI URI resolves to no bytes with its hash, neither retained nor built from ui/ (L10).",
  message:
    "{uri} ({name}) resolves to no bytes with that hash: neither retained under contracts/ui/ nor built from ui/{name}/",
});
const UI_NOT_ACTIVATED = defineRule({
  id: "UI_NOT_ACTIVATED",
  family: "release",
  severity: "warning",
  summary:
    "A ui/<name>/ source builds to another hash than the active URI; run " +
    "`skillpilot ui build --activate` to ship it (L10).",
  message:
    "ui/{name} builds to {built}, but the active URI is {active}; run `skillpilot ui build --activate` to ship the change",
});

/** A draft computed in memory: every file of the draft folder, and the identities that matter. */
export interface DraftContent {
  plugin: string;
  version: string;
  /** Folder-relative files, SHA256SUMS included. */
  files: BundleFile[];
  contentSha256: string;
  snapshotSha256: string;
  archives: { tar: string; tarGz: string; zip: string };
  ui: Record<string, string>;
  policyRevision: number;
  contractMajor: number;
}

/**
 * Compute the draft of `version` (default: packageVersion) from the project as it is: the generator
 * runs in memory and generated/ must not drift; the line must pass contract-line/v1 and the
 * allowlist; every active UI URI must resolve; the skills tree must be regular files only; the
 * directory submission pack must build (reviewed test cases, hint justifications, directory
 * review rules).
 * Reads files, writes nothing.
 */
export async function assembleDraft(
  root: string,
  options: { version?: string; onStep?: (label: string) => void } = {},
): Promise<{ draft?: DraftContent; diagnostics: Diagnostic[] }> {
  const step = options.onStep ?? (() => undefined);
  const paths = defaultPaths(root);
  step("generating the contract");
  const generated = await generateFromSources(await readContractSources(paths));
  const diagnostics: Diagnostic[] = [...generated.diagnostics];
  if (hasErrors(diagnostics)) return { diagnostics };
  step("checking generated/ and the contract line");
  diagnostics.push(
    ...(await checkGenerated(root, generated.files)),
    ...(await checkLine(root)).diagnostics,
  );
  const snapshotText = generated.files.find((f) =>
    f.path.endsWith(releaseFiles.snapshot),
  )!.contents;
  const snapshot = JSON.parse(snapshotText) as ContractSnapshot;
  const version = options.version ?? snapshot.plugin.packageVersion;
  diagnostics.push(...checkVersion(version, snapshot.plugin.packageVersion));
  step("building the widget pages");
  const ui = await activeUi(root, snapshot, diagnostics);
  step("collecting the skills");
  const skills = await collectSkills(root, diagnostics);
  step("building the directory submissions");
  const pack = await buildSubmissionPack(root, generated.model!, snapshotText, version);
  diagnostics.push(...pack.diagnostics);
  if (hasErrors(diagnostics)) return { diagnostics };

  const pkg = packageTree({ snapshot, version, skills, ui });
  step("building the archives");
  const archives = await buildArchives(pkg);
  const files: BundleFile[] = [
    ...pkg.map((f) => ({ ...f, path: `${releaseFiles.packageDir}/${f.path}` })),
    { path: releaseFiles.snapshot, data: Buffer.from(snapshotText, "utf8"), mode: 0o644 },
    { path: releaseFiles.installBundle, data: archives.tarGz, mode: 0o644 },
    { path: releaseFiles.submissionZip, data: archives.zip, mode: 0o644 },
    ...pack.files,
  ];
  const manifest = Buffer.from(
    renderSha256Manifest(files.map((f) => ({ path: f.path, sha256: sha256Hex(f.data) }))),
    "utf8",
  );
  files.push({ path: releaseFiles.manifest, data: manifest, mode: 0o644 });
  return {
    diagnostics,
    draft: {
      plugin: snapshot.plugin.packageName,
      version,
      files,
      contentSha256: sha256Hex(manifest),
      snapshotSha256: sha256Hex(snapshotText),
      archives: archives.sha256,
      ui: Object.fromEntries(ui.map((u) => [u.name, u.uri])),
      policyRevision: Number(snapshot.line.policyRevision),
      contractMajor: snapshot.contractMajor,
    },
  };
}

function checkVersion(version: string, packageVersion: string): Diagnostic[] {
  const location = { file: projectLayout.pluginFile, pointer: "/packageVersion" };
  if (!semver.valid(version) || semver.prerelease(version) || version !== semver.clean(version))
    return [diagnose(RELEASE_VERSION_INVALID, { version }, location)];
  if (version !== packageVersion)
    return [diagnose(RELEASE_VERSION_MISMATCH, { version, packageVersion }, location)];
  return [];
}

/** The artifact of every active UI URI, verified by hash; warns when a source has moved on. */
async function activeUi(
  root: string,
  snapshot: ContractSnapshot,
  diagnostics: Diagnostic[],
): Promise<UiArtifact[]> {
  const active = (snapshot.line.activeUi ?? {}) as Record<string, string>;
  let built: UiArtifact[] = [];
  try {
    built = await buildAllUi(root, snapshot.contractMajor);
  } catch (e) {
    if (!(e instanceof UiBuildError)) throw e;
    diagnostics.push(diagnose(UI_BUILD_FAILED, { error: e.message }, { file: "ui" }));
  }
  const out: UiArtifact[] = [];
  for (const [name, uri] of Object.entries(active).sort()) {
    const location = { file: lineFile, pointer: `/activeUi/${name}` };
    const source = built.find((b) => b.name === name);
    if (source && source.uri !== uri)
      diagnostics.push(
        diagnose(UI_NOT_ACTIVATED, { name, built: source.uri, active: uri }, location),
      );
    const resolved = await resolveUiResource(root, uri);
    if (!resolved) diagnostics.push(diagnose(UI_URI_UNRESOLVED, { uri, name }, location));
    else out.push({ name, html: resolved.html, sha256: parseUiUri(uri)!.sha256, uri });
  }
  return out;
}

async function collectSkills(root: string, diagnostics: Diagnostic[]): Promise<BundleFile[]> {
  const dir = path.join(root, projectLayout.skillsDir);
  if (!(await lstat(dir).catch(() => undefined))) {
    diagnostics.push(diagnose(SKILLS_MISSING, {}, { file: projectLayout.skillsDir }));
    return [];
  }
  try {
    return await collectTree(dir);
  } catch (e) {
    if (!(e instanceof BundleInputError)) throw e;
    diagnostics.push(
      diagnose(
        BUNDLE_INPUT_INVALID,
        { error: e.message.replace(root + path.sep, "") },
        {
          file: path.relative(root, e.file).split(path.sep).join("/"),
        },
      ),
    );
    return [];
  }
}
