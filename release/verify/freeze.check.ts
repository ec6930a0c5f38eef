import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { checkFrozenContract } from "../freeze/assert-not-drifted.js";
import { readFreezeState } from "../../contract-model/review-freeze.js";
import { projectLayout, draftDir } from "../../contract-model/project-layout.js";
import { FROZEN_DRAFT_MODIFIED } from "../publish/record-published.js";
import { inspectReleaseDir } from "../release-dir.js";

const CONTRACT_DRIFTED_WHILE_FROZEN = defineRule({
  id: "CONTRACT_DRIFTED_WHILE_FROZEN",
  family: "release",
  severity: "error",
  summary: "generated/contract.snapshot.json differs from the contract frozen for review (L3).",
  message: "{detail}",
});

/**
 * While a version is under review freeze, its draft bytes and the served contract stay as frozen
 * (L3).
 */
export async function checkFreeze(root: string, plugin: string): Promise<Diagnostic[]> {
  const active = readFreezeState(root).active;
  if (!active) return [];
  const out: Diagnostic[] = [];
  const dir = draftDir(plugin, active.version);
  const state = await inspectReleaseDir(path.join(root, dir));
  if (!state.exists || state.problems.length || state.contentSha256 !== active.contentSha256)
    out.push(
      diagnose(
        FROZEN_DRAFT_MODIFIED,
        state.problems.length
          ? { variant: "reviewBecause", dir, problems: state.problems.join("; ") }
          : { variant: "review", dir },
        { file: dir },
      ),
    );
  const contract = checkFrozenContract(root);
  if (!contract.ok)
    out.push(
      diagnose(
        CONTRACT_DRIFTED_WHILE_FROZEN,
        { detail: contract.message },
        { file: projectLayout.reviewFreeze },
      ),
    );
  return out;
}
