import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectLayout } from "../project/project-layout.js";

/** One contract-line file of a project: its path, its content and its support lifecycle. */
export interface ContractLineFile {
  /** Repository-relative path (posix). */
  file: string;
  /** The parsed line, or undefined when the file is not JSON. */
  line?: Record<string, unknown>;
  /** `supportLifecycle` as the file says it (RETIRED lines are no longer served). */
  supportLifecycle?: string;
}

/**
 * Every contract line in a project: `release/line.json` and each `release/lines/<name>.json`,
 * in that order (the extra lines sorted by name). Synchronous, so a test can build one suite per
 * line at load time (L12.4: a line added under release/ adds its column with no test edits).
 */
export function listContractLines(root: string): ContractLineFile[] {
  let extra: string[] = [];
  try {
    extra = readdirSync(path.join(root, projectLayout.linesDir), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".json"))
      .map((e) => `${projectLayout.linesDir}/${e.name}`)
      .sort();
  } catch {
    // no release/lines/: the project serves one line
  }
  const files = [projectLayout.lineFile, ...extra];
  return files.flatMap((file): ContractLineFile[] => {
    let text: string;
    try {
      text = readFileSync(path.join(root, file), "utf8");
    } catch {
      return [];
    }
    try {
      const line = JSON.parse(text) as Record<string, unknown>;
      return [
        {
          file,
          line,
          ...(typeof line.supportLifecycle === "string"
            ? { supportLifecycle: line.supportLifecycle }
            : {}),
        },
      ];
    } catch {
      return [{ file }];
    }
  });
}

/** The lines still served: every line that is not RETIRED (an unreadable one counts, to fail). */
export const servedLines = (root: string): ContractLineFile[] =>
  listContractLines(root).filter((l) => l.supportLifecycle !== "RETIRED");
