import { readFileSync } from "node:fs";
import path from "node:path";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import {
  againstBaselines,
  projectUiServing,
  publishedBaselines,
  publishedRoot,
  readDoc,
} from "./baselines.js";
import { diffContracts, diffFailed, type DiffResult } from "./contract-diff.js";
import type { LiveServerOptions } from "./live-server.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import { generatedStaleness } from "../../contract-model/project/generated-manifest.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { lineLocator } from "./locate-findings.js";
import { snapshotToSources } from "./source-locations.js";
import { defaultWaiverFile, readWaivers } from "./waivers.js";

/**
 * The visible notice of a diff that compared nothing: CI must never pass a breaking change in
 * silence because no baseline exists yet (L12.2).
 */
const DIFF_NO_BASELINE = defineRule({
  id: "DIFF_NO_BASELINE",
  family: "diff",
  severity: "warning",
  summary:
    "Nothing to compare against: no published snapshot exists yet, so no breaking change can " +
    "be detected (L12.2).",
  message:
    "no published snapshot under {dir}/: nothing was compared, so a breaking change would go unnoticed; run record-published after the first publication, and diff against git:<merge base> meanwhile (CI does)",
});

const DIFF_SNAPSHOT_STALE = defineRule({
  id: "DIFF_SNAPSHOT_STALE",
  family: "diff",
  severity: "error",
  summary:
    "The project's generated snapshot no longer matches schemas/ (or was edited by hand): the " +
    "diff would judge a contract that is not the one in the sources.",
  message: {
    sources:
      "{snapshot} is older than {file}{more}: run `skillpilot generate` (and fix what it reports), then diff again",
    edited: "{file} was edited by hand: run `skillpilot generate`, then diff again",
  },
});

/** What `skillpilot diff` was asked to compare. */
export interface DiffRequest {
  root: string;
  /**
   * Explicit OLD and NEW documents; without them the project's snapshot is compared to its
   * baselines.
   */
  oldFile?: string;
  newFile?: string;
  /** Baselines instead of the published snapshots (each a directory, file, git:REF or URL). */
  against?: string | readonly string[];
  snapshotFile: string;
  oldVersion?: string;
  newVersion?: string;
  waiverFile?: string;
  now: Date;
  /** Check the declared package version bump (default true; `--no-version-check`). */
  versionCheck?: boolean;
  /** Headers and protocol era for documents that are live `http(s)://…/mcp` servers. */
  live?: LiveServerOptions;
}

/**
 * Outcome: input errors (exit 2), or a result — one that compared nothing (no baseline yet: no
 * comparisons, the DIFF_NO_BASELINE notice, exit 0) or the comparison itself. Every finding and
 * problem of a result carries its file:line location.
 */
export type DiffOutcome =
  | { status: "input-error"; diagnostics: Diagnostic[] }
  | { status: "nothing-to-compare"; result: DiffResult; failed: false }
  | { status: "compared"; result: DiffResult; failed: boolean };

/** The result of a diff that compared nothing: no change, the notice as its one problem. */
function nothingCompared(notice: Diagnostic): DiffResult {
  return {
    requiredBump: "none",
    classification: "server-only",
    breaking: false,
    pinning: "none",
    comparisons: [],
    findings: [],
    problems: [notice],
    note: notice.message,
  };
}

/** Load both sides and the waivers, run the diff, and attach file:line locations. */
export async function runDiff(req: DiffRequest): Promise<DiffOutcome> {
  // The waiver file is read and checked whenever it is given, also when nothing is compared: a
  // typo in --waivers must not pass in silence until the first baseline exists.
  const waivers = await readWaivers(
    path.resolve(req.root, req.waiverFile ?? defaultWaiverFile),
    req.waiverFile ?? defaultWaiverFile,
    req.waiverFile !== undefined,
  );
  const input: Diagnostic[] = [...waivers.diagnostics];
  let newDoc: ContractDoc | undefined;
  let baselines: ContractDoc[];
  if (req.newFile) {
    newDoc = await readDoc(req.root, req.newFile, input, req.newVersion, req.live);
    baselines = req.oldFile
      ? [await readDoc(req.root, req.oldFile, input, req.oldVersion, req.live)].filter(
          (d): d is ContractDoc => d !== undefined,
        )
      : [];
  } else {
    const stale = await staleSnapshot(req.root, req.snapshotFile);
    if (stale) return { status: "input-error", diagnostics: [stale] };
    newDoc = await readDoc(req.root, req.snapshotFile, input, req.newVersion);
    if (newDoc && newDoc.uiBytes.size === 0) {
      const serving = await projectUiServing(req.root);
      Object.assign(newDoc, {
        uiBytes: serving.bytes,
        uiRequired: serving.required,
        uiComplete: true,
      });
    }
    if (req.oldFile)
      baselines = [await readDoc(req.root, req.oldFile, input, req.oldVersion, req.live)].filter(
        (d): d is ContractDoc => d !== undefined,
      );
    else if (req.against?.length) {
      baselines = [];
      for (const spec of typeof req.against === "string" ? [req.against] : req.against)
        baselines.push(
          ...(await againstBaselines(
            req.root,
            spec,
            req.snapshotFile,
            input,
            req.oldVersion,
            req.live,
          )),
        );
    } else {
      baselines = await publishedBaselines(req.root, input);
      if (baselines.length === 0 && !hasErrors(input)) {
        const notice = diagnose(DIFF_NO_BASELINE, { dir: publishedRoot }, { file: publishedRoot });
        return { status: "nothing-to-compare", result: nothingCompared(notice), failed: false };
      }
    }
  }
  if (hasErrors(input) || !newDoc || baselines.length === 0) {
    const locate = lineLocator(
      input.map((d) => d.location),
      (f) => textOf(req.root, f),
    );
    return {
      status: "input-error",
      diagnostics: input.map((d) => ({ ...d, location: locate(d.location) })),
    };
  }
  const result = diffContracts(baselines, newDoc, {
    waivers: waivers.waivers,
    waiverFile: req.waiverFile ?? defaultWaiverFile,
    now: req.now,
    versionCheck: req.versionCheck,
  });
  await placeFindings(req, result, [newDoc, ...baselines]);
  return { status: "compared", result, failed: diffFailed(result) };
}

/**
 * The one place a finding's location becomes a source location: each finding and problem carries
 * the pointer its rule reported (in the old or new document); here it gets its file:line:col — for
 * the project's own contract in the schema a developer edits, not the generated snapshot.
 */
async function placeFindings(
  req: DiffRequest,
  result: DiffResult,
  docs: readonly ContractDoc[],
): Promise<void> {
  const placed = [...result.findings, ...result.problems];
  if (!req.newFile) {
    const toSource = await snapshotToSources(req.root, docs[0]);
    for (const item of placed) item.location = toSource(item.location);
  }
  // The compared documents' texts were read already; other files (schemas) are read once each.
  const texts = new Map(docs.flatMap((d) => (d.text ? [[d.file, d.text]] : [])));
  const locate = lineLocator(
    placed.map((item) => item.location),
    (f) => texts.get(f) ?? textOf(req.root, f),
  );
  for (const item of placed) item.location = locate(item.location);
}

/**
 * The one-line refusal to judge the project's own snapshot when `generated/` is behind
 * `schemas/`: comparing it would report on a contract the sources no longer describe.
 */
async function staleSnapshot(root: string, snapshotFile: string) {
  if (path.normalize(snapshotFile) !== path.normalize(projectLayout.snapshotFile)) return undefined;
  const stale = await generatedStaleness(root);
  if (!stale) return undefined;
  const [file, ...rest] = stale.sources;
  if (file)
    return diagnose(
      DIFF_SNAPSHOT_STALE,
      {
        variant: "sources",
        snapshot: snapshotFile,
        file,
        more: rest.length ? ` and ${rest.length} more` : "",
      },
      { file },
    );
  const edited = stale.outputs.find((f) => f === snapshotFile) ?? stale.outputs[0];
  return edited
    ? diagnose(DIFF_SNAPSHOT_STALE, { variant: "edited", file: edited }, { file: edited })
    : undefined;
}

const cache = new Map<string, string | undefined>();
function textOf(root: string, file: string): string | undefined {
  const abs = path.resolve(root, file);
  if (!cache.has(abs)) {
    try {
      cache.set(abs, readFileSync(abs, "utf8"));
    } catch {
      cache.set(abs, undefined);
    }
  }
  return cache.get(abs);
}
