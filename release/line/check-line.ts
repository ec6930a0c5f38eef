import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { withLines } from "../../diagnostics/locate.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { validateContractLine } from "../../generated/validators.gen.js";
import { LINE_INVALID } from "../../generator/build-phases/document-checks.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { type GitHistory, readGitHistory } from "../../contract-model/history/git-history.js";
import { readPluginName } from "../plugin-identity.js";
import { readReleaseIndex } from "../../contract-model/release/release-index.js";
import {
  checkLineHistory,
  committedLines,
  LINE_BASELINE_MISSING,
  type LineState,
  lineAtGitRef,
  recordedLines,
} from "./line-history.js";

const LINE_SUCCESSOR_NOT_ALLOWLISTED = defineRule({
  id: "LINE_SUCCESSOR_NOT_ALLOWLISTED",
  family: "release",
  severity: "error",
  summary: "A WARN line's successor launch URL must be on the first-party allowlist (L11).",
  message: "WARN line's successor launches from {origin}, which is not in {allowlist}",
});
const LINE_SUCCESSOR_NOT_NEWER = defineRule({
  id: "LINE_SUCCESSOR_NOT_NEWER",
  family: "release",
  severity: "error",
  summary: "A successor line must have a higher contract major (L11).",
  message: "successor contract major {successor} is not above this line's {current}",
});

export const lineFile = projectLayout.lineFile;
const allowlistFile = projectLayout.allowlistFile;

/** The first-party allowlist config: exact https origins a successor may launch from. */
export interface FirstPartyAllowlist {
  launchOrigins: string[];
}

/**
 * Check `release/line.json` against contract-line/v1 (the generated validator, so the schema is the
 * only statement of the invariants) plus what JSON Schema cannot say: a successor of a WARN line
 * launches from an allowlisted first-party origin and is a published line of the release index,
 * every successor is a newer contract major, and against the release records the policyRevision
 * never went back and each axis moved only as contract-line-transition/v1 allows (L4, L11).
 */
export async function checkLine(
  root: string,
  options: { since?: string; history?: GitHistory } = {},
): Promise<{ line?: Record<string, unknown>; diagnostics: Diagnostic[] }> {
  const text = await readFile(path.join(root, lineFile), "utf8").catch(() => undefined);
  if (text === undefined)
    return {
      diagnostics: [
        diagnose(LINE_INVALID, { variant: "missing", file: lineFile }, { file: lineFile }),
      ],
    };
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch (e) {
    return {
      diagnostics: [
        diagnose(
          LINE_INVALID,
          { variant: "notJson", file: lineFile, error: (e as Error).message },
          { file: lineFile },
        ),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  if (!validateContractLine(line)) {
    for (const err of validateContractLine.errors ?? [])
      diagnostics.push(
        diagnose(
          LINE_INVALID,
          {
            variant: "line",
            path: err.instancePath || "(root)",
            error: err.message ?? "is invalid",
          },
          { file: lineFile, pointer: err.instancePath },
        ),
      );
    return { diagnostics: withLines(dedupe(diagnostics), () => text) };
  }
  const doc = line as unknown as Record<string, unknown>;
  const successor = doc.successor as { contractMajor: number; launchUrl: string } | null;
  if (successor) {
    if (successor.contractMajor <= Number(doc.contractMajor))
      diagnostics.push(
        diagnose(
          LINE_SUCCESSOR_NOT_NEWER,
          { successor: successor.contractMajor, current: String(doc.contractMajor) },
          { file: lineFile, pointer: "/successor/contractMajor" },
        ),
      );
    const allowlist = await readAllowlist(root);
    const origin = safeOrigin(successor.launchUrl);
    if (doc.newSessionPolicy === "WARN" && (!origin || !allowlist.launchOrigins.includes(origin)))
      diagnostics.push(
        diagnose(
          LINE_SUCCESSOR_NOT_ALLOWLISTED,
          { origin: origin ?? successor.launchUrl, allowlist: allowlistFile },
          { file: lineFile, pointer: "/successor/launchUrl" },
        ),
      );
  }
  diagnostics.push(...(await historyDiagnostics(root, doc as unknown as LineState, options)));
  return { line: doc, diagnostics: withLines(diagnostics, () => text) };
}

/**
 * The line against the release records, every version of it committed in git (`history`, read here
 * when not given) and, with `since` (`git:REF`), the line committed there; an unreadable index is
 * verify's to report.
 */
async function historyDiagnostics(
  root: string,
  line: LineState,
  { since, history }: { since?: string; history?: GitHistory },
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  let recorded: Awaited<ReturnType<typeof recordedLines>> = [];
  let index: Awaited<ReturnType<typeof readReleaseIndex>> = { indexFormat: "", releases: [] };
  try {
    index = await readReleaseIndex(root);
    recorded = await recordedLines(root, await readPluginName(root), index);
  } catch {
    // verify reports an unreadable index or plugin identity on its own
  }
  const committed = (history ?? (await readGitHistory(root, [lineFile]))).versions;
  recorded = [...recorded, ...committedLines(committed.filter((v) => v.path === lineFile))];
  if (since !== undefined) {
    const ref = since.replace(/^git:/, "");
    const atRef = await lineAtGitRef(root, ref);
    if (atRef) recorded = [...recorded, atRef];
    else
      out.push(
        diagnose(LINE_BASELINE_MISSING, { ref: `git:${ref}`, lineFile }, { file: lineFile }),
      );
  }
  return [...out, ...checkLineHistory(line, recorded, index)];
}

/** Read the allowlist config; a missing file means an empty list (nothing is first-party). */
export async function readAllowlist(root: string): Promise<FirstPartyAllowlist> {
  const text = await readFile(path.join(root, allowlistFile), "utf8").catch(() => undefined);
  const parsed = text ? (JSON.parse(text) as Partial<FirstPartyAllowlist>) : {};
  return {
    launchOrigins: Array.isArray(parsed.launchOrigins)
      ? parsed.launchOrigins.filter((o) => typeof o === "string")
      : [],
  };
}

/** The origin of an https URL without credentials; undefined otherwise. */
function safeOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === "https:" && !u.username && !u.password ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

const dedupe = (list: Diagnostic[]) => [
  ...new Map(list.map((d) => [`${d.location.pointer}\0${d.message}`, d])).values(),
];
