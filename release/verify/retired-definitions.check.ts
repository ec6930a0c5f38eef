import {
  retiredDefinitionsFormat,
  retiredReleases,
  type Retirement,
} from "../../evolution/approved-definitions.js";
import { canonicalJsonCompact } from "../../contract-model/canonical.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { ReleaseIndex } from "../../contract-model/release/release-index.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import type { FileVersion } from "../../contract-model/history/git-history.js";
import { RETIRED_DEFINITIONS_INVALID } from "../retire/retire-definitions.js";
import { RELEASE_RECORD_REWRITTEN } from "./release-records.check.js";

const file = projectLayout.retiredDefinitions;

/**
 * The retirement record (L4): readable, each retirement names a published version once, with a
 * reason and a date; and append-only — every retirement any committed version of the file held is
 * still there unchanged (`history`: the file's versions in git, oldest first).
 */
export async function checkRetiredDefinitions(
  root: string,
  index: ReleaseIndex,
  history: readonly FileVersion[],
): Promise<Diagnostic[]> {
  let retired: Retirement[];
  try {
    retired = await retiredReleases(root);
  } catch (e) {
    return [
      diagnose(
        RETIRED_DEFINITIONS_INVALID,
        { variant: "unreadable", file, error: (e as Error).message },
        { file },
      ),
    ];
  }
  const out: Diagnostic[] = [];
  const published = new Set(index.releases.map((r) => r.version));
  const first = new Map<string, number>();
  retired.forEach((r, i) => {
    const at = { file, pointer: `/retirements/${i}` };
    if (
      typeof r?.version !== "string" ||
      typeof r.reason !== "string" ||
      !r.reason.trim() ||
      !/^\d{4}-\d{2}-\d{2}$/.test(String(r.retiredAt))
    )
      out.push(diagnose(RETIRED_DEFINITIONS_INVALID, { variant: "shape", file, index: i }, at));
    else if (!published.has(r.version))
      out.push(
        diagnose(
          RETIRED_DEFINITIONS_INVALID,
          { variant: "unknown", file, index: i, version: r.version },
          at,
        ),
      );
    else if (first.has(r.version))
      out.push(
        diagnose(
          RETIRED_DEFINITIONS_INVALID,
          { variant: "twice", file, version: r.version, first: first.get(r.version)!, index: i },
          at,
        ),
      );
    else first.set(r.version, i);
  });
  const now = new Map(retired.map((r) => [r?.version, canonicalJsonCompact(r)]));
  const reported = new Set<string>();
  for (const v of history) {
    let committed: Retirement[] = [];
    try {
      const doc = JSON.parse(v.text) as { format?: unknown; retirements?: unknown };
      if (doc.format === retiredDefinitionsFormat && Array.isArray(doc.retirements))
        committed = doc.retirements as Retirement[];
    } catch {
      continue;
    }
    const where = `git:${v.commit.slice(0, 12)}`;
    for (const r of committed) {
      if (reported.has(r.version)) continue;
      const current = now.get(r.version);
      if (current === canonicalJsonCompact(r)) continue;
      reported.add(r.version);
      out.push(
        diagnose(
          RELEASE_RECORD_REWRITTEN,
          {
            variant: current === undefined ? "retirementRemoved" : "retirementChanged",
            file,
            version: r.version,
            where,
          },
          { file },
        ),
      );
    }
  }
  return out;
}
