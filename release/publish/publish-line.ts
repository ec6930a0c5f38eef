import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { validateContractLine } from "../../generated/validators.gen.js";
import { LINE_INVALID } from "../../generator/build-phases/document-checks.js";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { writeGenerated } from "../../generator/write.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import {
  allowedTargets,
  checkLineHistory,
  LINE_TRANSITION_FORBIDDEN,
  recordedLines,
  transitionAllowed,
} from "../line/line-history.js";
import { readPluginName } from "../plugin-identity.js";
import { readReleaseIndex, type ReleaseEntry } from "../../contract-model/release/release-index.js";

/** What `record-published` will do to `release/line.json`, decided before anything is written. */
export interface LinePublicationPlan {
  diagnostics: Diagnostic[];
  /** True when the line is not PUBLISHED yet. */
  changed: boolean;
  /** The line file as read, and as it will be written. */
  original?: string;
  text?: string;
  /** The line's state once published, recorded in the release index entry. */
  state?: NonNullable<ReleaseEntry["line"]>;
}

/**
 * Plan moving the line to PUBLISHED after the portal published `version` (L4, L11): the line is
 * valid and of the package's contract major, the move is a transition contract-line-transition/v1
 * allows (a RETIRED line stays UNPUBLISHED), and the published line passes the history checks
 * (revision never lowered, axes moved only as allowed since the last record).
 */
export async function planLinePublication(
  root: string,
  version: string,
  packageMajor: number,
): Promise<LinePublicationPlan> {
  const file = projectLayout.lineFile;
  const refuse = (d: Diagnostic): LinePublicationPlan => ({ diagnostics: [d], changed: false });
  const original = await readFile(path.join(root, file), "utf8").catch(() => undefined);
  if (original === undefined)
    return refuse(diagnose(LINE_INVALID, { variant: "missing", file }, { file }));
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(original) as Record<string, unknown>;
  } catch (e) {
    return refuse(
      diagnose(LINE_INVALID, { variant: "notJson", file, error: (e as Error).message }, { file }),
    );
  }
  if (!validateContractLine(line)) {
    const err = validateContractLine.errors?.[0];
    return refuse(
      diagnose(
        LINE_INVALID,
        {
          variant: "line",
          path: err?.instancePath || "(root)",
          error: err?.message ?? "is invalid",
        },
        { file, pointer: err?.instancePath ?? "" },
      ),
    );
  }
  if (line.contractMajor !== packageMajor)
    return refuse(
      diagnose(
        LINE_TRANSITION_FORBIDDEN,
        {
          variant: "major",
          lineFile: file,
          line: String(line.contractMajor),
          version,
          published: packageMajor,
        },
        { file, pointer: "/contractMajor" },
      ),
    );
  const from = String(line.publicationStatus);
  if (line.supportLifecycle === "RETIRED")
    return refuse(
      diagnose(
        LINE_TRANSITION_FORBIDDEN,
        { variant: "retired", version },
        { file, pointer: "/supportLifecycle" },
      ),
    );
  if (!transitionAllowed("publicationStatus", from, "PUBLISHED"))
    return refuse(
      diagnose(
        LINE_TRANSITION_FORBIDDEN,
        {
          variant: "axis",
          axis: "publicationStatus",
          from,
          to: "PUBLISHED",
          recorded: file,
          allowed: allowedTargets("publicationStatus", from).join(", "),
        },
        { file, pointer: "/publicationStatus" },
      ),
    );
  const next = { ...line, publicationStatus: "PUBLISHED" };
  const state = {
    policyRevision: Number(next.policyRevision),
    supportLifecycle: String(next.supportLifecycle),
    publicationStatus: "PUBLISHED",
    newSessionPolicy: String(next.newSessionPolicy),
  };
  const index = await readReleaseIndex(root);
  const history = checkLineHistory(
    {
      ...state,
      contractMajor: packageMajor,
      successor: next.successor as { contractMajor: number } | null,
    },
    await recordedLines(root, await readPluginName(root), index),
    index,
  );
  if (hasErrors(history)) return { diagnostics: history, changed: false };
  return {
    diagnostics: [],
    changed: from !== "PUBLISHED",
    original,
    text: `${JSON.stringify(next, null, 2)}\n`,
    state,
  };
}

/**
 * Write the planned line and regenerate generated/ (the snapshot carries the line); when the result
 * does not generate, the line file is restored and the diagnostics returned.
 */
export async function writeLine(root: string, plan: LinePublicationPlan): Promise<Diagnostic[]> {
  if (!plan.changed || plan.text === undefined || plan.original === undefined) return [];
  const abs = path.join(root, projectLayout.lineFile);
  await writeFile(abs, plan.text);
  const result = await generateFromSources(await readContractSources(defaultPaths(root)));
  if (hasErrors(result.diagnostics)) {
    await writeFile(abs, plan.original);
    return result.diagnostics;
  }
  await writeGenerated(root, result.files);
  return [];
}
