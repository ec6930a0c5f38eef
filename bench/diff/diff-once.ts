/**
 * One `skillpilot diff OLD NEW` in a fresh process, through the same `runDiff` path as the CLI
 * (read, parse, dereference, compare, verify witnesses, locate lines). Prints timings and peak RSS
 * as JSON.
 */
import { performance } from "node:perf_hooks";
import { runDiff } from "../../checks/diff/run-diff.js";

const [oldFile, newFile] = process.argv.slice(2);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const outcome = await runDiff({
  root: process.cwd(),
  oldFile,
  newFile,
  snapshotFile: newFile,
  now: new Date("2026-06-01T00:00:00Z"),
});
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
if (outcome.status !== "compared") throw new Error(JSON.stringify(outcome));
process.stdout.write(
  `${JSON.stringify({
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    findings: outcome.result.findings.length,
    breaking: outcome.result.findings.filter((f) => f.bump === "major").length,
    requiredBump: outcome.result.requiredBump,
  })}\n`,
);
