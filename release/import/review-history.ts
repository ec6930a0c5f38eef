import { appendRecord, type RecordFile, readRecord } from "../append-only-record.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

/** Format tag of `contracts/review-history.json`. */
export const reviewHistoryFormat = "skillpilot-review-history/1";

/** What a review-history entry records: a review the portal rejected, or a candidate before it. */
export const reviewStatuses = ["rejected", "candidate"] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

/**
 * One version that was reviewed or prepared for review but never became a live definition, with
 * the original bytes a release engineer supplied. Never a holder of approved definitions, never a
 * diff baseline; never edited afterwards.
 */
export interface ReviewHistoryEntry {
  version: string;
  status: ReviewStatus;
  /** The package name the bytes carry: the permanent one or a declared former one. */
  packageName: string;
  /** `YYYY-MM-DD`: the portal's decision (rejected) or when the candidate was assembled. */
  reviewedAt: string;
  /** `YYYY-MM-DD`: when the entry was recorded. */
  recordedAt: string;
  /** Free text: the review's reasons, what the candidate was for. */
  note?: string;
  /** The folder that keeps the original bytes, with its `SHA256SUMS`. */
  dir: string;
  /** sha256 of the folder's SHA256SUMS. */
  contentSha256: string;
  source: "bundle" | "tools-manifest";
  /** Every original file, kept byte-identical: its file name, folder path and sha256. */
  files: { name: string; path: string; sha256: string }[];
  /** The tool names the release listed. */
  tools: string[];
}

const record: RecordFile = {
  file: projectLayout.reviewHistory,
  format: reviewHistoryFormat,
  list: "entries",
  comment:
    "Written by skillpilot record-published --import --review: review history that never became a live definition. Do not edit by hand.",
};

/** The recorded entries, oldest first; a missing file is none. Throws on a malformed record. */
export const readReviewHistory = (root: string): Promise<ReviewHistoryEntry[]> =>
  readRecord<ReviewHistoryEntry>(root, record);

/** Append one entry; earlier entries are written back as read. */
export const appendReviewHistory = (root: string, entry: ReviewHistoryEntry): Promise<void> =>
  appendRecord(root, record, entry);
