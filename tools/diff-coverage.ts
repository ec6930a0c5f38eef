import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  coverageLine,
  coverageMarkdown,
  coverageReport,
} from "../checks/diff/coverage/coverage-report.js";

// `npm run diff:coverage`: demonstrate every edit of the MCP Tool object's edit space on its
// generated case, print the one-line summary and write docs/diff-coverage.md. `--check` writes
// nothing and fails when the page is stale. Either way, an unaccounted edit fails the run.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const page = path.join(root, "docs", "diff-coverage.md");
const check = process.argv.includes("--check");

const report = coverageReport();
const text = coverageMarkdown(report);
console.log(coverageLine(report));
for (const id of report.unmapped) console.error(`unaccounted: ${id} is not in the coverage map`);
for (const id of report.stale)
  console.error(`stale: ${id} is in the coverage map, not in the model`);
for (const r of report.results.filter((x) => x.status === "unaccounted"))
  console.error(`unaccounted: ${r.entry.edit.id}: ${r.problem}`);
let failed = report.unaccounted > 0 || report.stale.length > 0;
if (check) {
  const current = await readFile(page, "utf8").catch(() => "");
  if (current !== text) {
    console.error("docs/diff-coverage.md is stale: run `npm run diff:coverage`");
    failed = true;
  }
} else await writeFile(page, text);
process.exitCode = failed ? 1 : 0;
