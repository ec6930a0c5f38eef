import type { ArchiveLimits } from "./archive-limits.js";
import { lstat } from "node:fs/promises";
import path from "node:path";
import { projectLayout, reviewHistoryDir } from "../../contract-model/project/project-layout.js";
import { hasErrors } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { readFormerPackageNames, readPluginName } from "../plugin-identity.js";
import { writeReleaseDir } from "../write-release-dir.js";
import {
  checkImportClaims,
  type ImportFiles,
  type ImportResult,
  readImportInput,
} from "./import-input.js";
import { REVIEW_HISTORY_EXISTS } from "./import.rules.js";
import { keptFolder } from "./import-source.js";
import {
  appendReviewHistory,
  readReviewHistory,
  type ReviewHistoryEntry,
  type ReviewStatus,
} from "./review-history.js";

/**
 * `skillpilot record-published X --import … --review rejected|candidate`: record the bytes of a
 * version that never became a live definition — a review the portal rejected, a candidate
 * prepared before submission — as review history: the original files byte for byte under
 * `contracts/review-history/openai/<plugin>/X-<status>/` with a `SHA256SUMS`, and an entry in
 * `contracts/review-history.json`. It is no release: the release index, the line, the UI store and
 * the live approved definitions are not touched. The bytes must be X of this plugin (its permanent
 * or a declared former package name). Recording the same bytes again is a no-op; other bytes for
 * the same version and status are refused.
 */
export async function importReview(
  root: string,
  version: string,
  files: ImportFiles,
  options: {
    status: ReviewStatus;
    reviewedAt: string;
    note?: string;
    now?: Date;
    limits?: ArchiveLimits;
  },
): Promise<ImportResult> {
  const input = await readImportInput(root, files, options.limits);
  if (!("located" in input)) return input;
  const { source, label, located, diagnostics } = input;
  const plugin = await readPluginName(root);
  checkImportClaims(
    version,
    located,
    label,
    { permanent: plugin, former: await readFormerPackageNames(root) },
    diagnostics,
  );
  if (hasErrors(diagnostics)) return { diagnostics };

  const { status } = options;
  const dir = reviewHistoryDir(plugin, version, status);
  const folder = keptFolder(source);
  const history = await readReviewHistory(root);
  const known = history.find((e) => e.version === version && e.status === status);
  if (known?.contentSha256 === folder.contentSha256)
    return {
      diagnostics,
      outcome: "unchanged",
      message: `${version} (${status}) is already recorded with these bytes`,
    };
  if (known)
    return {
      diagnostics: [
        diagnose(
          REVIEW_HISTORY_EXISTS,
          { variant: "recorded", version, status, dir },
          { file: projectLayout.reviewHistory },
        ),
      ],
    };
  if (await lstat(path.join(root, dir)).catch(() => undefined))
    return {
      diagnostics: [
        diagnose(
          REVIEW_HISTORY_EXISTS,
          { variant: "folder", version, status, dir, record: projectLayout.reviewHistory },
          { file: dir },
        ),
      ],
    };

  const entry: ReviewHistoryEntry = {
    version,
    status,
    packageName: located.packageName,
    reviewedAt: options.reviewedAt,
    recordedAt: (options.now ?? new Date()).toISOString().slice(0, 10),
    ...(options.note?.trim() ? { note: options.note.trim() } : {}),
    dir,
    contentSha256: folder.contentSha256,
    source: source.kind,
    files: folder.originals,
    tools: located.tools.map((t) => String(t.name)).sort(),
  };
  await writeReleaseDir(path.join(root, dir), folder.files, { replace: false });
  await appendReviewHistory(root, entry);
  return {
    diagnostics,
    outcome: "done",
    message:
      `recorded ${version} (${status}, ${source.kind === "bundle" ? label : "tools list + manifest"}) ` +
      `as review history in ${dir} and ${projectLayout.reviewHistory}; it is no published ` +
      `release and no host holds its definitions`,
  };
}
