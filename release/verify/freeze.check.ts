import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { checkFrozenBuild, checkFrozenContract } from "../freeze/assert-not-drifted.js";
import { readFreezeState } from "../../contract-model/release/review-freeze.js";
import { projectLayout, draftDir } from "../../contract-model/project/project-layout.js";
import { FROZEN_DRAFT_MODIFIED } from "../publish/record-published.js";
import { inspectReleaseDir } from "../release-dir.js";
import { serverBuildLayers } from "../../contract-model/release/server-build.js";

const CONTRACT_DRIFTED_WHILE_FROZEN = defineRule({
  id: "CONTRACT_DRIFTED_WHILE_FROZEN",
  family: "release",
  severity: "error",
  summary: "generated/contract.snapshot.json differs from the contract frozen for review (L3).",
  message: "{detail}",
});

const SERVER_BUILD_DRIFTED_WHILE_FROZEN = defineRule({
  id: "SERVER_BUILD_DRIFTED_WHILE_FROZEN",
  family: "release",
  severity: "error",
  summary:
    "The server build (code, generated, curricula, skills, UI store, production dependencies) " +
    "differs from the build frozen for review (L3).",
  message: "{detail}",
});
const SERVER_BUILD_FROZEN = defineRule({
  id: "SERVER_BUILD_FROZEN",
  family: "release",
  severity: "note",
  summary: "The server build recorded with the version under review freeze (L3).",
  message: "{version} is frozen with server build sha256 {sha256} ({layers})",
});

/**
 * While a version is under review freeze, its draft bytes and the served contract stay as frozen
 * (L3), and so does the server build frozen with it (shown as a note).
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
  const build = active.serverBuild;
  if (build)
    out.push(
      diagnose(
        SERVER_BUILD_FROZEN,
        {
          version: active.version,
          sha256: build.sha256,
          layers: serverBuildLayers
            .map((name) => `${name} ${build.layers[name]?.sha256.slice(0, 12)}…`)
            .join(", "),
        },
        { file: projectLayout.reviewFreeze, pointer: "/active/serverBuild" },
      ),
    );
  const running = await checkFrozenBuild(root);
  if (!running.ok)
    out.push(
      diagnose(
        SERVER_BUILD_DRIFTED_WHILE_FROZEN,
        { detail: running.message.replace(/; refusing to start.*$/, "") },
        { file: projectLayout.reviewFreeze, pointer: "/active/serverBuild" },
      ),
    );
  return out;
}
