import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import semver from "semver";
import { diagnose, defineRule } from "../../diagnostics/rule.js";
import { collectTree } from "../../contract-model/file-tree/collect-tree.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { intactDraft, NOT_FROZEN, type ReleaseStepResult } from "../freeze/freeze.js";
import { readFreezeState, writeFreezeState } from "../../contract-model/release/review-freeze.js";
import {
  projectLayout,
  publishedDir,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import { inspectReleaseDir } from "../release-dir.js";
import { recordUiActivations, retainUiArtifact } from "../../contract-model/ui/ui-store.js";
import { writeReleaseDir } from "../write-release-dir.js";
import {
  appendReleaseEntry,
  readReleaseIndex,
  type ReleaseEntry,
} from "../../contract-model/release/release-index.js";
import {
  entryEvidence,
  LIVE_EVIDENCE_MISSING,
  LIVE_EVIDENCE_WAIVED,
  liveEvidenceFor,
} from "./live-evidence.js";
import { planLinePublication, writeLine } from "./publish-line.js";
import { openStatement } from "../statement/approved-statement.js";

export const FROZEN_DRAFT_MODIFIED = defineRule({
  id: "FROZEN_DRAFT_MODIFIED",
  family: "release",
  severity: "error",
  summary: "The frozen draft's bytes no longer match what was frozen (L3, L4).",
  message: {
    changed: "{dir} changed since it was frozen ({frozen}… → {now}…)",
    review: "{dir} no longer holds the bytes frozen for review",
    reviewBecause: "{dir} no longer holds the bytes frozen for review: {problems}",
  },
});
export const PUBLISHED_EXISTS = defineRule({
  id: "PUBLISHED_EXISTS",
  family: "release",
  severity: "error",
  summary:
    "A published version exists with other bytes; published versions are never overwritten (L4).",
  message: {
    recorded:
      "{version} is already recorded ({dir}) with other bytes than its draft; published versions are never overwritten",
    folder:
      "{dir} exists with other bytes than the draft of {version}; published versions are never overwritten",
    imported:
      "{dir} exists but {version} is not in the release index; an import records a new folder only, it never adopts or overwrites one",
  },
});
export const VERSION_NOT_NEWER = defineRule({
  id: "VERSION_NOT_NEWER",
  family: "release",
  severity: "error",
  summary: "A new published version must be above every version in the release index (L4).",
  message: "{version} is not above already published {published}",
});

/**
 * `skillpilot record-published X` (L4): after the portal published X, copy its frozen draft to
 * `contracts/published/openai/<plugin>/X/`, retain its UI bytes under `contracts/ui/`, append the
 * release index, move `release/line.json` to PUBLISHED (through the transitions
 * contract-line-transition/v1 allows, L11; regenerating generated/) and end the freeze. Only from
 * a frozen draft whose bytes still match, and only with pre-submission evidence (§10.2): a passing
 * `verify --live` recorded for the frozen contract, or `withoutLiveEvidence` — a reason, kept in
 * the index entry. An existing X with the same bytes is a no-op, with other bytes a refusal.
 */
export async function recordPublished(
  root: string,
  version: string,
  options: {
    publishedAt?: string;
    now?: Date;
    withoutLiveEvidence?: string;
    /** The release key file signing the statement of approved definitions (else the env/dev key). */
    releaseKey?: string;
  } = {},
): Promise<ReleaseStepResult> {
  const draft = await intactDraft(root, version);
  const pubDir = publishedDir(draft.plugin, version);
  const index = await readReleaseIndex(root);
  const published = await inspectReleaseDir(path.join(root, pubDir));
  const indexed = index.releases.find((r) => r.version === version);
  const intact = published.exists && published.problems.length === 0;
  if (indexed) {
    if (
      intact &&
      published.contentSha256 === indexed.contentSha256 &&
      (!draft.contentSha256 || draft.contentSha256 === indexed.contentSha256)
    ) {
      // An interrupted run may have left the line a DRAFT: moving it completes the record.
      const plan = await planLinePublication(root, version, indexed.contractMajor);
      if (plan.diagnostics.length) return { diagnostics: plan.diagnostics };
      if (!plan.changed)
        return {
          diagnostics: [],
          outcome: "unchanged",
          message: `${version} is already recorded with these bytes`,
        };
      const written = await writeLine(root, plan);
      if (written.length) return { diagnostics: written };
      return {
        diagnostics: [],
        outcome: "done",
        message: `${version} was already recorded; moved ${projectLayout.lineFile} to PUBLISHED`,
      };
    }
    return {
      diagnostics: [
        diagnose(PUBLISHED_EXISTS, { variant: "recorded", version, dir: pubDir }, { file: pubDir }),
      ],
    };
  }
  if (draft.diagnostics.length) return { diagnostics: draft.diagnostics };
  // A folder without an index entry is only accepted when it is this very draft (an interrupted
  // run).
  if (published.exists && !(intact && published.contentSha256 === draft.contentSha256))
    return {
      diagnostics: [
        diagnose(PUBLISHED_EXISTS, { variant: "folder", version, dir: pubDir }, { file: pubDir }),
      ],
    };
  const frozen = readFreezeState(root);
  if (frozen.active?.version !== version)
    return {
      diagnostics: [
        diagnose(NOT_FROZEN, { variant: "publish", version }, { file: projectLayout.reviewFreeze }),
      ],
    };
  if (frozen.active.contentSha256 !== draft.contentSha256)
    return {
      diagnostics: [
        diagnose(
          FROZEN_DRAFT_MODIFIED,
          {
            variant: "changed",
            dir: draft.dir,
            frozen: frozen.active.contentSha256.slice(0, 12),
            now: draft.contentSha256!.slice(0, 12),
          },
          { file: draft.dir },
        ),
      ],
    };
  const newer = index.releases
    .filter((r) => semver.valid(r.version) && !semver.gt(version, r.version))
    .map((r) => r.version);
  if (newer.length)
    return {
      diagnostics: [
        diagnose(
          VERSION_NOT_NEWER,
          { version, published: newer.join(", ") },
          { file: projectLayout.releaseIndex },
        ),
      ],
    };

  const files = await collectTree(path.join(root, draft.dir));
  const plan = await planLinePublication(
    root,
    version,
    await packageContractMajor(root, draft.dir),
  );
  if (plan.diagnostics.length) return { diagnostics: plan.diagnostics };
  const waiver = options.withoutLiveEvidence?.trim();
  const live = waiver ? undefined : await liveEvidenceFor(root, frozen.active.snapshotSha256);
  if (!waiver && !live)
    return {
      diagnostics: [
        diagnose(
          LIVE_EVIDENCE_MISSING,
          {
            file: projectLayout.liveEvidence,
            version,
            snapshot: frozen.active.snapshotSha256.slice(0, 12),
          },
          { file: projectLayout.liveEvidence },
        ),
      ],
    };
  const statement = await openStatement(root, { keyFile: options.releaseKey });
  if (!statement.writer) return { diagnostics: statement.diagnostics };
  const entry = await releaseEntry(
    root,
    draft.dir,
    version,
    draft.contentSha256!,
    options.publishedAt ?? (options.now ?? new Date()).toISOString().slice(0, 10),
  );
  for (const [name, uri] of Object.entries(entry.ui))
    await retainUiArtifact(
      root,
      uri,
      await readFile(path.join(root, draft.dir, releaseFiles.packageDir, "ui", name, "index.html")),
    );
  await recordUiActivations(
    root,
    Object.entries(entry.ui).map(([name, uri]) => ({ uri, name })),
  );
  if (!published.exists) await writeReleaseDir(path.join(root, pubDir), files, { replace: false });
  await appendReleaseEntry(root, {
    ...entry,
    line: plan.state,
    liveEvidence: live ? entryEvidence(live) : { kind: "waived", reason: waiver! },
  });
  const written = await writeLine(root, plan);
  if (written.length) return { diagnostics: written };
  await writeFreezeState(root, {
    active: null,
    history: [
      ...frozen.history,
      {
        action: "published",
        version,
        at: (options.now ?? new Date()).toISOString(),
        contentSha256: entry.contentSha256,
      },
    ],
  });
  const signed = await statement.writer.append({ kind: "published", version }, entry.publishedAt);
  return {
    diagnostics: waiver
      ? [
          diagnose(
            LIVE_EVIDENCE_WAIVED,
            { version, reason: waiver },
            { file: projectLayout.releaseIndex },
          ),
        ]
      : [],
    outcome: "done",
    message:
      `recorded ${version} in ${pubDir} and ${projectLayout.releaseIndex}` +
      (plan.changed ? `; ${projectLayout.lineFile} is PUBLISHED` : "") +
      (live
        ? `\npre-submission evidence: ${live.serverOrigin} served its contract (verify --live, ${live.checkedAt})`
        : "") +
      `\n${signed}`,
  };
}

/** The contract major a draft's package ships (package/plugin.json). */
async function packageContractMajor(root: string, dir: string): Promise<number> {
  const manifest = JSON.parse(
    await readFile(path.join(root, dir, releaseFiles.packageDir, "plugin.json"), "utf8"),
  ) as { contractMajor: number };
  return manifest.contractMajor;
}

/** The index entry of a draft folder, read from the files themselves. */
async function releaseEntry(
  root: string,
  dir: string,
  version: string,
  contentSha256: string,
  publishedAt: string,
): Promise<ReleaseEntry> {
  const read = (rel: string) => readFile(path.join(root, dir, rel));
  const manifest = JSON.parse(
    (await read(`${releaseFiles.packageDir}/plugin.json`)).toString("utf8"),
  ) as {
    name: string;
    displayName: string;
    contractMajor: number;
    ui: Record<string, { uri: string }>;
  };
  const line = JSON.parse(
    (await read(`${releaseFiles.packageDir}/contract-line.json`)).toString("utf8"),
  ) as { policyRevision: number };
  const tarGz = await read(releaseFiles.installBundle);
  return {
    version,
    packageName: manifest.name,
    displayName: manifest.displayName,
    contractMajor: manifest.contractMajor,
    publishedAt,
    contentSha256,
    snapshotSha256: sha256Hex(await read(releaseFiles.snapshot)),
    archives: {
      "plugin-install-bundle.tar": sha256Hex(gunzipSync(tarGz)),
      "plugin-install-bundle.tar.gz": sha256Hex(tarGz),
      "directory-submission.zip": sha256Hex(await read(releaseFiles.submissionZip)),
    },
    ui: Object.fromEntries(Object.entries(manifest.ui).map(([name, u]) => [name, u.uri])),
    linePolicyRevision: line.policyRevision,
  };
}
