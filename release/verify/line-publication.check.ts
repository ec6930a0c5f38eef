import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { listContractLines } from "../../contract-model/release/contract-lines.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { ReleaseIndex } from "../../contract-model/release/release-index.js";

const LINE_PUBLICATION_UNRECORDED = defineRule({
  id: "LINE_PUBLICATION_UNRECORDED",
  family: "release",
  severity: "error",
  summary:
    "A contract line claims a publication (PUBLISHED, or UNPUBLISHED: withdrawn after one) that " +
    "the release index does not record; only record-published publishes a line (L4, L11).",
  message:
    "{file} says publicationStatus {status} for contract major {major}, but {index} records no published release of contract major {major}; run `skillpilot record-published` after the portal published it, or keep the line DRAFT",
});

/** The publication states that only exist after a release was published (PUBLISHED, withdrawn). */
const impliesPublication = new Set(["PUBLISHED", "UNPUBLISHED"]);

/**
 * A line is published only by `record-published` (L4): every contract line (`release/line.json`
 * and each `release/lines/<name>.json`) whose publicationStatus says it was published — PUBLISHED,
 * or UNPUBLISHED, which a draft can never reach, and with it every RETIRED line — has a release of
 * its contract major in the release index. Hand-editing DRAFT → PUBLISHED fails here.
 */
export function checkLinePublication(root: string, index: ReleaseIndex): Diagnostic[] {
  const published = new Set(index.releases.map((r) => r.contractMajor));
  const out: Diagnostic[] = [];
  for (const { file, line } of listContractLines(root)) {
    const status = line?.publicationStatus;
    const major = line?.contractMajor;
    if (typeof status !== "string" || !impliesPublication.has(status)) continue;
    if (typeof major !== "number" || published.has(major)) continue;
    out.push(
      diagnose(
        LINE_PUBLICATION_UNRECORDED,
        { file, status, major, index: projectLayout.releaseIndex },
        { file, pointer: "/publicationStatus" },
      ),
    );
  }
  return out;
}
