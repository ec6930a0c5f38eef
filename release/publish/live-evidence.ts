import { appendRecord, type RecordFile, readRecord } from "../append-only-record.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { PublicationEvidence } from "../../contract-model/release/release-index.js";
import { defineRule } from "../../diagnostics/rule.js";

/** Format tag of `contracts/live-evidence.json`. */
export const liveEvidenceFormat = "skillpilot-live-evidence/1";

/** One passing `verify --live` run: which candidate contract which deployed server served. */
export type LiveEvidence = Extract<PublicationEvidence, { kind: "verified" }> & {
  /** The package version the candidate snapshot carries. */
  packageVersion: string;
  /** Who else the server was judged against (e.g. "published 1.1.3", "frozen draft 1.2.0"). */
  holders: string[];
};

export const LIVE_EVIDENCE_MISSING = defineRule({
  id: "LIVE_EVIDENCE_MISSING",
  family: "release",
  severity: "error",
  summary:
    "A version is recorded as published only with pre-submission evidence: a passing " +
    "`verify --live` against its contract, or an explicit, recorded waiver (§10.2: the server " +
    "deploys first).",
  message:
    "no passing `skillpilot verify --live URL` is recorded in {file} for the contract of {version} (snapshot sha256 {snapshot}…); run it against the deployed server, or record the release with --without-live-evidence <reason>",
});

export const LIVE_EVIDENCE_WAIVED = defineRule({
  id: "LIVE_EVIDENCE_WAIVED",
  family: "release",
  severity: "warning",
  summary:
    "A version was recorded without a passing `verify --live` (--without-live-evidence); the " +
    "reason is kept in its release index entry.",
  message: "{version} was recorded without pre-submission live evidence: {reason}",
});

export const LIVE_EVIDENCE_PENDING = defineRule({
  id: "LIVE_EVIDENCE_PENDING",
  family: "release",
  severity: "warning",
  summary:
    "The frozen draft has no passing `verify --live` yet: prove the deployed server serves it " +
    "before submitting, record-published will ask for it (§10.2).",
  message:
    "no passing `skillpilot verify --live URL` is recorded for the contract of {version} yet; run it before submitting (record-published needs it)",
});

const record: RecordFile = {
  file: projectLayout.liveEvidence,
  format: liveEvidenceFormat,
  list: "runs",
  comment:
    "Written by skillpilot verify --live: each passing run against a deployed server. Do not edit by hand.",
};

/** Every recorded run, oldest first; a missing file is none. Throws on a malformed record. */
export const readLiveEvidence = (root: string): Promise<LiveEvidence[]> =>
  readRecord<LiveEvidence>(root, record);

/** The newest passing run for a candidate contract (by its snapshot hash), if any. */
export async function liveEvidenceFor(
  root: string,
  snapshotSha256: string,
): Promise<LiveEvidence | undefined> {
  const runs = await readLiveEvidence(root).catch(() => []);
  return runs.filter((r) => r.snapshotSha256 === snapshotSha256).at(-1);
}

/** Append one passing run; earlier runs are written back as read. */
export const appendLiveEvidence = (root: string, run: LiveEvidence): Promise<void> =>
  appendRecord(root, record, run);

/** What a release index entry keeps of a run (the fields of `PublicationEvidence`). */
export const entryEvidence = (run: LiveEvidence): PublicationEvidence => ({
  kind: "verified",
  verdict: run.verdict,
  serverOrigin: run.serverOrigin,
  checkedAt: run.checkedAt,
  snapshotSha256: run.snapshotSha256,
});
