import { readFile } from "node:fs/promises";
import path from "node:path";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { liveApprovedDefinitions } from "../../evolution/approved-definitions.js";
import { liveDefinitionSets } from "../../evolution/definition-tags/approved-tags.js";
import {
  historyRewrite,
  type StatementDocument,
  statementFormat,
} from "../../evolution/definition-tags/statement.js";
import type { FileVersion } from "../../contract-model/history/git-history.js";
import { projectLaneIds } from "../statement/lane-ids.js";
import { verifyStatementFiles } from "../statement/verify-statement-files.js";

export const APPROVED_STATEMENT_INVALID = defineRule({
  id: "APPROVED_STATEMENT_INVALID",
  family: "release",
  severity: "error",
  summary:
    "The signed statement of approved definitions (experimental) verifies with its committed " +
    "public key and only ever grows: no committed entry is changed or dropped.",
  message: {
    refused: "{file}: {reason}",
    rewritten: "{file} rewrites the statement committed in {where}: {reason}",
  },
});

export const APPROVED_STATEMENT_BEHIND = defineRule({
  id: "APPROVED_STATEMENT_BEHIND",
  family: "release",
  severity: "warning",
  summary:
    "The latest entry of the signed statement of approved definitions (experimental) lists the " +
    "published releases whose definitions are live, on every lane.",
  message:
    "{file}: its latest entry lists {recorded} on {lane}, the release records make {live} live; the next record-published or retire-definitions appends the current state",
});

/**
 * The statement of approved definitions, when a project has one: it verifies offline with the
 * committed public key (signature, chain, tags, the readable copy), keeps every entry any committed
 * version of it held (`history`, oldest first), and its latest entry lists the live published sets
 * (when the release records can be read; what cannot is reported by the other checks).
 */
export async function checkApprovedStatement(
  root: string,
  history: readonly FileVersion[],
): Promise<Diagnostic[]> {
  const file = projectLayout.approvedStatement;
  const abs = (rel: string) => path.join(root, rel);
  const text = await readFile(abs(file), "utf8").catch(() => undefined);
  const jws = await readFile(abs(projectLayout.approvedStatementJws), "utf8").catch(
    () => undefined,
  );
  if (text === undefined && jws === undefined) return [];
  const result = await verifyStatementFiles(
    {
      statement: abs(projectLayout.approvedStatementJws),
      key: abs(projectLayout.approvedStatementKey),
    },
    { read: (f) => readFile(f, "utf8"), root },
  );
  if (result.kind !== "verified")
    return [
      diagnose(
        APPROVED_STATEMENT_INVALID,
        { variant: "refused", file, reason: result.message },
        { file },
      ),
    ];
  const current = JSON.parse(text!) as StatementDocument;
  const out: Diagnostic[] = [];
  for (const v of history) {
    let committed: StatementDocument;
    try {
      committed = JSON.parse(v.text) as StatementDocument;
    } catch {
      continue;
    }
    if (committed?.format !== statementFormat || !Array.isArray(committed.entries)) continue;
    const reason = historyRewrite(committed, current);
    if (reason) {
      out.push(
        diagnose(
          APPROVED_STATEMENT_INVALID,
          { variant: "rewritten", file, where: `git:${v.commit.slice(0, 12)}`, reason },
          { file },
        ),
      );
      break;
    }
  }
  const defs = await liveApprovedDefinitions(root);
  // Records that cannot be read are the other checks' findings; compare only a readable state.
  if (defs.problems.length) return out;
  const lanes = await projectLaneIds(root);
  const live = liveDefinitionSets(defs, lanes).filter((s) => s.holder.kind === "published");
  const last = current.entries.at(-1)!;
  for (const lane of lanes) {
    const recorded = last.lanes.find((l) => l.lane === lane)?.approved ?? [];
    const shown = (sets: { version: string; tag: string }[]) =>
      sets.map((s) => s.version).join(", ") || "none";
    const want = live.map((s) => ({ version: s.holder.version, tag: s.tags[lane] }));
    const have = recorded
      .filter((a) => a.kind === "published")
      .map((a) => ({ version: a.version, tag: a.tag }));
    if (JSON.stringify(want) !== JSON.stringify(have)) {
      out.push(
        diagnose(
          APPROVED_STATEMENT_BEHIND,
          { file, lane, recorded: shown(have), live: shown(want) },
          { file },
        ),
      );
      break;
    }
  }
  return out;
}
