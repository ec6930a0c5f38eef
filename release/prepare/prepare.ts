import path from "node:path";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { readFreezeState } from "../../contract-model/release/review-freeze.js";
import { projectLayout, draftDir } from "../../contract-model/project/project-layout.js";
import { readReleaseIndex } from "../../contract-model/release/release-index.js";
import { inspectReleaseDir } from "../release-dir.js";
import { writeReleaseDir } from "../write-release-dir.js";
import { assembleDraft, type DraftContent } from "./assemble-draft.js";

const FROZEN_DRAFT_CHANGED = defineRule({
  id: "FROZEN_DRAFT_CHANGED",
  family: "release",
  severity: "error",
  summary:
    "The version is under review freeze and the project no longer reproduces its bytes (L3).",
  message:
    "{version} is under review freeze (content {frozen}…), but the project now produces {now}…; revert the change or `skillpilot unfreeze {version} --reason …`",
});
export const VERSION_ALREADY_PUBLISHED = defineRule({
  id: "VERSION_ALREADY_PUBLISHED",
  family: "release",
  severity: "error",
  summary:
    "The version is already published; published versions are immutable, bump packageVersion (L4).",
  message: {
    prepare: "{version} is already published; bump packageVersion in schemas/plugin.json",
    freeze: "{version} is already published",
  },
});

/** What `prepare` did. */
export interface PrepareResult {
  diagnostics: Diagnostic[];
  draft?: DraftContent;
  /** Repository-relative draft folder. */
  dir?: string;
  outcome?: "written" | "unchanged";
}

/**
 * `skillpilot prepare`: regenerate `contracts/drafts/openai/<plugin>/<X>-SNAPSHOT/` (L3). While X
 * is frozen the draft may only be reproduced byte for byte; a published X is never re-drafted.
 */
export async function prepare(
  root: string,
  options: { version?: string; onStep?: (label: string) => void } = {},
): Promise<PrepareResult> {
  const { draft, diagnostics } = await assembleDraft(root, options);
  if (!draft || hasErrors(diagnostics)) return { diagnostics };
  const dir = draftDir(draft.plugin, draft.version);
  const index = await readReleaseIndex(root);
  if (index.releases?.some((r) => r.version === draft.version))
    return {
      diagnostics: [
        ...diagnostics,
        diagnose(
          VERSION_ALREADY_PUBLISHED,
          { variant: "prepare", version: draft.version },
          { file: projectLayout.releaseIndex },
        ),
      ],
    };
  const frozen = readFreezeState(root).active;
  if (frozen?.version === draft.version && frozen.contentSha256 !== draft.contentSha256)
    return {
      diagnostics: [
        ...diagnostics,
        diagnose(
          FROZEN_DRAFT_CHANGED,
          {
            version: draft.version,
            frozen: frozen.contentSha256.slice(0, 12),
            now: draft.contentSha256.slice(0, 12),
          },
          { file: projectLayout.reviewFreeze },
        ),
      ],
    };
  const abs = path.join(root, dir);
  const current = await inspectReleaseDir(abs);
  if (current.contentSha256 === draft.contentSha256 && current.problems.length === 0)
    return { diagnostics, draft, dir, outcome: "unchanged" };
  options.onStep?.("writing the draft");
  await writeReleaseDir(abs, draft.files, { replace: true });
  return { diagnostics, draft, dir, outcome: "written" };
}
