import { readdir } from "node:fs/promises";
import path from "node:path";
import { projectLayout, reviewHistoryDir } from "../../contract-model/project/project-layout.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { readReviewHistory, type ReviewHistoryEntry } from "../import/review-history.js";
import { inspectReleaseDir } from "../release-dir.js";

const REVIEW_HISTORY_MISMATCH = defineRule({
  id: "REVIEW_HISTORY_MISMATCH",
  family: "release",
  severity: "error",
  summary:
    "contracts/review-history.json and the folders keeping its original bytes disagree: review " +
    "history is append-only and its bytes are never edited (L4).",
  message: {
    unreadable: "{record}: {error}",
    dir: "{record}: {version} ({status}) names the folder {dir}, not {expected}",
    folder: "{dir} ({version}, {status}): {problem}",
    unrecorded: "{dir} is not named by any entry of {record}",
  },
});

/**
 * Review history (rejected reviews, pre-submission candidates): every entry's folder is where its
 * version and status put it, matches its own SHA256SUMS, the content hash and the original files'
 * hashes the entry records; no folder is kept without an entry.
 */
export async function checkReviewHistory(root: string, plugin: string): Promise<Diagnostic[]> {
  const record = projectLayout.reviewHistory;
  let entries: ReviewHistoryEntry[];
  try {
    entries = await readReviewHistory(root);
  } catch (e) {
    return [
      diagnose(
        REVIEW_HISTORY_MISMATCH,
        { variant: "unreadable", record, error: (e as Error).message },
        { file: record },
      ),
    ];
  }
  const out: Diagnostic[] = [];
  const named = new Set<string>();
  for (const entry of entries) {
    const { version, status } = entry;
    const expected = reviewHistoryDir(plugin, version, status);
    if (entry.dir !== expected) {
      out.push(
        diagnose(
          REVIEW_HISTORY_MISMATCH,
          { variant: "dir", record, version, status, dir: entry.dir, expected },
          { file: record },
        ),
      );
      continue;
    }
    named.add(expected);
    const state = await inspectReleaseDir(path.join(root, expected));
    const problems = !state.exists
      ? ["the folder is missing"]
      : [
          ...state.problems,
          ...(state.contentSha256 !== entry.contentSha256
            ? [`its SHA256SUMS is not the one ${record} records`]
            : []),
          ...entry.files
            .filter((f) => state.listed.get(f.path) !== f.sha256)
            .map((f) => `${f.path} (${f.name}) is not the original file ${record} records`),
        ];
    for (const problem of problems)
      out.push(
        diagnose(
          REVIEW_HISTORY_MISMATCH,
          { variant: "folder", dir: expected, version, status, problem },
          { file: expected },
        ),
      );
  }
  const parent = `${projectLayout.reviewHistoryDir}/openai/${plugin}`;
  for (const name of (await readdir(path.join(root, parent)).catch(() => [] as string[])).sort())
    if (!named.has(`${parent}/${name}`))
      out.push(
        diagnose(
          REVIEW_HISTORY_MISMATCH,
          { variant: "unrecorded", dir: `${parent}/${name}`, record },
          { file: `${parent}/${name}` },
        ),
      );
  return out;
}
