import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { docFromText } from "../../checks/diff/baselines.js";
import { lintDirectory } from "../../checks/lint/directory/lint-directory.js";
import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { releaseFiles } from "../../contract-model/project/project-layout.js";
import type { ContractModel } from "../../generator/model.js";
import { buildChatgptSubmission } from "./chatgpt-submission.js";
import { buildClaudeReport } from "./claude-directory-report.js";
import { readSubmissionCases } from "./test-cases.js";

/**
 * The directory submission pack `prepare` writes beside the bundle: the ChatGPT form's import
 * file and the Claude directory report. Problems are diagnostics (the test-case file, missing
 * justifications or app info, the directory review rules); with any error nothing is returned.
 */
export async function buildSubmissionPack(
  root: string,
  model: ContractModel,
  snapshotText: string,
  version: string,
): Promise<{ files: BundleFile[]; diagnostics: Diagnostic[] }> {
  const parsed: Diagnostic[] = [];
  const doc = docFromText(snapshotText, "generated/contract.snapshot.json", parsed);
  if (!doc) return { files: [], diagnostics: parsed };
  const raw: unknown = JSON.parse(snapshotText);
  // Reviewers test the package, which holds the current tools only (a superseded one is not in it).
  const tools = model.tools
    .filter((t) => !t.supersededBy)
    .map((t) => ({
      name: t.name,
      needsTest: JSON.stringify(t.visibility) !== JSON.stringify(["app"]),
    }));
  const { cases, diagnostics } = await readSubmissionCases(root, tools);
  const seen = new Set<string>();
  const claudeFindings = lintDirectory(doc, "claude-directory", raw);
  for (const found of [lintDirectory(doc, "openai-directory", raw), claudeFindings])
    for (const d of found) {
      const key = JSON.stringify([d.ruleId, d.message, d.location]);
      if (d.ruleId.startsWith("DIRECTORY_") && !seen.has(key)) {
        seen.add(key);
        diagnostics.push(d);
      }
    }
  if (!cases || diagnostics.some((d) => d.severity === "error")) return { files: [], diagnostics };
  const chatgpt = buildChatgptSubmission(model, cases);
  diagnostics.push(...chatgpt.diagnostics);
  if (!chatgpt.json) return { files: [], diagnostics };
  const claude = buildClaudeReport(model, { doc, raw }, version, claudeFindings);
  const file = (path: string, json: unknown): BundleFile => ({
    path,
    data: Buffer.from(`${JSON.stringify(json, null, 2)}\n`, "utf8"),
    mode: 0o644,
  });
  return {
    files: [
      file(releaseFiles.chatgptSubmission, chatgpt.json),
      file(releaseFiles.claudeDirectoryReport, claude.json),
    ],
    diagnostics,
  };
}
