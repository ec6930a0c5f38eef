import { readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import { snapshotPath } from "../../contract-model/snapshot.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { serverBuildIdentity } from "../../contract-model/release/server-build.js";
import {
  projectLayout,
  draftDir,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import { VERSION_ALREADY_PUBLISHED } from "../prepare/prepare.js";
import { readReleaseIndex } from "../../contract-model/release/release-index.js";
import { readPackageVersion, readPluginName } from "../plugin-identity.js";
import { inspectReleaseDir } from "../release-dir.js";
import { readFreezeState, writeFreezeState } from "../../contract-model/release/review-freeze.js";
import { LIVE_EVIDENCE_PENDING, liveEvidenceFor } from "../publish/live-evidence.js";

const DRAFT_MISSING = defineRule({
  id: "DRAFT_MISSING",
  family: "release",
  severity: "error",
  summary: "There is no draft folder for the version; run `skillpilot prepare` (L3).",
  message: {
    notSemver: "{version:json} is not a SemVer version",
    missing: "{dir} does not exist; run `skillpilot prepare`",
    otherVersion:
      "{dir} does not exist, and the project's packageVersion is {packageVersion}: set it to " +
      "{version} in schemas/plugin.json, run `skillpilot generate`, then `skillpilot prepare`",
  },
});
const DRAFT_CORRUPT = defineRule({
  id: "DRAFT_CORRUPT",
  family: "release",
  severity: "error",
  summary: "A draft folder no longer matches its own SHA256SUMS (L3).",
  message: "{problem}",
});
const DRAFT_STALE = defineRule({
  id: "DRAFT_STALE",
  family: "release",
  severity: "error",
  summary:
    "The draft's contract snapshot differs from generated/; run `skillpilot " +
    "prepare` before freezing (L3).",
  message: "{dir}/{snapshot} differs from {current}; run `skillpilot prepare` first",
});
const FREEZE_ALREADY_ACTIVE = defineRule({
  id: "FREEZE_ALREADY_ACTIVE",
  family: "release",
  severity: "error",
  summary: "Another version is under review freeze; only one version is reviewed at a time (L3).",
  message: "{version} is under review freeze; unfreeze or publish it first",
});
export const NOT_FROZEN = defineRule({
  id: "NOT_FROZEN",
  family: "release",
  severity: "error",
  summary: "The version is not under review freeze (L3, L4).",
  message: {
    publish:
      "{version} is not under review freeze; run `skillpilot freeze {version}` before it is submitted",
    unfreeze: "{version} is not frozen",
    otherFrozen: "{version} is not frozen ({active} is)",
  },
});

/** Outcome of freeze, unfreeze and record-published: findings, or what was done. */
export interface ReleaseStepResult {
  diagnostics: Diagnostic[];
  outcome?: "done" | "unchanged";
  message?: string;
}

const refuse = (...diagnostics: Diagnostic[]): ReleaseStepResult => ({ diagnostics });

/**
 * Checks shared by freeze and record-published: the version's draft exists, is intact, and its
 * identity.
 */
export async function intactDraft(
  root: string,
  version: string,
): Promise<{
  plugin: string;
  dir: string;
  contentSha256?: string;
  snapshotSha256?: string;
  diagnostics: Diagnostic[];
}> {
  const plugin = await readPluginName(root);
  const dir = draftDir(plugin, version);
  if (!semver.valid(version))
    return {
      plugin,
      dir,
      diagnostics: [diagnose(DRAFT_MISSING, { variant: "notSemver", version }, { file: dir })],
    };
  const state = await inspectReleaseDir(path.join(root, dir));
  if (!state.exists) {
    // The way out leads to a command that works: prepare drafts the project's own version only.
    const packageVersion = await readPackageVersion(root);
    const hint =
      packageVersion === undefined || packageVersion === version
        ? ({ variant: "missing", dir } as const)
        : ({ variant: "otherVersion", dir, version, packageVersion } as const);
    return { plugin, dir, diagnostics: [diagnose(DRAFT_MISSING, hint, { file: dir })] };
  }
  if (state.problems.length)
    return {
      plugin,
      dir,
      diagnostics: state.problems.map((problem) =>
        diagnose(DRAFT_CORRUPT, { problem }, { file: dir }),
      ),
    };
  return {
    plugin,
    dir,
    contentSha256: state.contentSha256,
    snapshotSha256: state.listed.get(releaseFiles.snapshot),
    diagnostics: [],
  };
}

/** `skillpilot freeze X`: lock the draft of X for review, recording its content identity (L3). */
export async function freeze(
  root: string,
  version: string,
  now: Date = new Date(),
): Promise<ReleaseStepResult> {
  const draft = await intactDraft(root, version);
  if (draft.diagnostics.length) return refuse(...draft.diagnostics);
  if ((await readReleaseIndex(root)).releases.some((r) => r.version === version))
    return refuse(
      diagnose(
        VERSION_ALREADY_PUBLISHED,
        { variant: "freeze", version },
        { file: projectLayout.releaseIndex },
      ),
    );
  const state = readFreezeState(root);
  if (state.active?.version === version && state.active.contentSha256 === draft.contentSha256)
    return { diagnostics: [], outcome: "unchanged", message: `${version} is already frozen` };
  if (state.active)
    return refuse(
      diagnose(
        FREEZE_ALREADY_ACTIVE,
        { version: state.active.version },
        { file: projectLayout.reviewFreeze },
      ),
    );
  const runtimeSnapshot = await readFile(path.join(root, snapshotPath), "utf8").catch(() => "");
  if (sha256Hex(runtimeSnapshot) !== draft.snapshotSha256)
    return refuse(
      diagnose(
        DRAFT_STALE,
        { dir: draft.dir, snapshot: releaseFiles.snapshot, current: snapshotPath },
        { file: draft.dir },
      ),
    );
  const at = now.toISOString();
  const serverBuild = await serverBuildIdentity(root);
  await writeFreezeState(root, {
    active: {
      version,
      contentSha256: draft.contentSha256!,
      snapshotSha256: draft.snapshotSha256!,
      frozenAt: at,
      serverBuild,
    },
    history: [
      ...state.history,
      {
        action: "freeze",
        version,
        at,
        contentSha256: draft.contentSha256!,
        serverBuildSha256: serverBuild.sha256,
      },
    ],
  });
  // The documented order is verify --live, then freeze: say now what record-published will need.
  const evidence = await liveEvidenceFor(root, draft.snapshotSha256!);
  return {
    diagnostics: evidence
      ? []
      : [diagnose(LIVE_EVIDENCE_PENDING, { version }, { file: projectLayout.liveEvidence })],
    outcome: "done",
    message:
      `froze ${version} (content sha256 ${draft.contentSha256}; server build sha256 ` +
      `${serverBuild.sha256})`,
  };
}

/**
 * `skillpilot unfreeze X --reason …`: end the review freeze of X, keeping the reason in the
 * history.
 */
export async function unfreeze(
  root: string,
  version: string,
  reason: string,
  now: Date = new Date(),
): Promise<ReleaseStepResult> {
  // An empty reason is the caller's usage error (the CLI rejects it with exit 2), not a finding
  // about the project.
  if (!reason.trim()) throw new RangeError("unfreeze needs a non-empty reason");
  const state = readFreezeState(root);
  if (state.active?.version !== version)
    return refuse(
      diagnose(
        NOT_FROZEN,
        state.active
          ? { variant: "otherFrozen", version, active: state.active.version }
          : { variant: "unfreeze", version },
        { file: projectLayout.reviewFreeze },
      ),
    );
  await writeFreezeState(root, {
    active: null,
    history: [
      ...state.history,
      {
        action: "unfreeze",
        version,
        at: now.toISOString(),
        contentSha256: state.active.contentSha256,
        reason,
      },
    ],
  });
  return { diagnostics: [], outcome: "done", message: `unfroze ${version}: ${reason}` };
}
