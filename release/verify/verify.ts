import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { checkLine } from "../line/check-line.js";
import { readPluginName } from "../plugin-identity.js";
import {
  readReleaseIndex,
  releaseIndexFormat,
  type ReleaseIndex,
} from "../../contract-model/release/release-index.js";
import { readGitHistory } from "../../contract-model/history/git-history.js";
import { checkApprovedStatement } from "./approved-statement.check.js";
import { checkFreeze } from "./freeze.check.js";
import { checkLinePublication } from "./line-publication.check.js";
import { checkManifestGate } from "./manifest-gate.check.js";
import { checkPublished } from "./published.check.js";
import { checkReleaseRecords } from "./release-records.check.js";
import { checkRetiredDefinitions } from "./retired-definitions.check.js";
import { checkReviewHistory } from "./review-history.check.js";
import { checkUiActivations } from "./ui-activations.check.js";
import { checkUiRetention } from "./ui-retention.check.js";

const RELEASE_INDEX_INVALID = defineRule({
  id: "RELEASE_INDEX_INVALID",
  family: "release",
  severity: "error",
  summary: "contracts/release-index.json is unreadable or not a release index (L4).",
  message: {
    unreadable: "{index}: {error}",
    format: "{index} has format {format:json}, expected {expected}",
  },
});

const VERIFY_HISTORY_SHALLOW = defineRule({
  id: "VERIFY_HISTORY_SHALLOW",
  family: "release",
  severity: "note",
  summary:
    "verify ran in a shallow clone: the committed history of the contract line and the release " +
    "index before the shallow boundary was not checked (L4, L11).",
  message:
    "shallow clone: only the commits present were checked for a lowered policyRevision, a forbidden transition of {lineFile} and a rewritten {index}; run `git fetch --unshallow` for the whole history",
});

/**
 * `skillpilot verify`, the release CI gate: published folders match the index (L4, L5), release
 * records only grow (L4: against the git history of the index and, with `since`, the baseline's
 * index and published folders), a line claims publication only when the index records it (L4),
 * every UI URI ever active or published still resolves to identical bytes (L10), the manifest gate
 * (L12.1), the line policy (L11: against the release records, every committed version of the line
 * and, with `since`, the line committed at that git revision), the review freeze (L3) and the
 * review history's kept bytes, and the signed statement of approved definitions (experimental).
 * Reads
 * only; returns diagnostics.
 */
export async function verifyRelease(
  root: string,
  options: { since?: string } = {},
): Promise<Diagnostic[]> {
  let index: ReleaseIndex;
  try {
    index = await readReleaseIndex(root);
  } catch (e) {
    return [
      diagnose(
        RELEASE_INDEX_INVALID,
        { variant: "unreadable", index: projectLayout.releaseIndex, error: (e as Error).message },
        { file: projectLayout.releaseIndex },
      ),
    ];
  }
  const out: Diagnostic[] = [];
  if (index.releases.length && index.indexFormat !== releaseIndexFormat)
    out.push(
      diagnose(
        RELEASE_INDEX_INVALID,
        {
          variant: "format",
          index: projectLayout.releaseIndex,
          format: index.indexFormat,
          expected: releaseIndexFormat,
        },
        { file: projectLayout.releaseIndex },
      ),
    );
  const history = await readGitHistory(root, [
    projectLayout.lineFile,
    projectLayout.releaseIndex,
    projectLayout.retiredDefinitions,
    projectLayout.approvedStatement,
  ]);
  if (history.shallow)
    out.push(
      diagnose(
        VERIFY_HISTORY_SHALLOW,
        { lineFile: projectLayout.lineFile, index: projectLayout.releaseIndex },
        { file: projectLayout.lineFile },
      ),
    );
  const line = await checkLine(root, { since: options.since, history });
  out.push(...line.diagnostics);
  out.push(...checkLinePublication(root, index));
  out.push(
    ...(await checkReleaseRecords(root, index, {
      since: options.since,
      history: history.versions,
    })),
  );
  out.push(
    ...(await checkRetiredDefinitions(
      root,
      index,
      history.versions.filter((v) => v.path === projectLayout.retiredDefinitions),
    )),
  );
  out.push(...(await checkManifestGate(root, index, line.line)));
  const plugin = await readPluginName(root);
  out.push(...(await checkPublished(root, plugin, index)));
  out.push(...(await checkUiRetention(root, plugin, index)));
  out.push(
    ...(await checkUiActivations(
      root,
      index,
      history.versions.filter((v) => v.path === projectLayout.lineFile),
    )),
  );
  out.push(...(await checkFreeze(root, plugin)));
  out.push(...(await checkReviewHistory(root, plugin)));
  out.push(
    ...(await checkApprovedStatement(
      root,
      history.versions.filter((v) => v.path === projectLayout.approvedStatement),
    )),
  );
  return out;
}
