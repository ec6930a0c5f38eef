/**
 * CLI start-up and diff benchmark (issue #11): whole processes of the compiled CLI against a bare
 * `node -e 0` measured in the same run, interleaved, after warm-up runs.
 *
 * Targets: `skillpilot --help` costs at most 3× the CPU of `node -e 0`; `skillpilot diff` of two
 * 3000-tool contracts finishes in under 0.8 s wall, whole process, and of a real ~100-tool server's
 * tools/list in under 0.25 s. The real list is the pair of files SKILLPILOT_BENCH_TOOLS_LIST names
 * (`old.json:new.json`, e.g. github-mcp-server's tools at two commits, kept outside the repository),
 * by default the 113-tool github-mcp-server change of ../shared/corpora; without either a 113-tool
 * list shaped like one is synthesized and the row says so. Run:
 * `npm run bench:cli` (it builds first).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mutateContract, synthContract } from "../diff/synthesize.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const cli = path.join(root, "bin/skillpilot.js");
const hook = path.join(here, "report-cpu.mjs");
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 15);
const DIFF_ROUNDS = Number(process.env.BENCH_CLI_DIFF_ROUNDS ?? 5);

interface Sample {
  cpuMs: number;
  wallMs: number;
}

/** Run one process to completion; its own CPU comes from the hook, wall time from here. */
function measure(args: string[], okCodes = [0]): Sample {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", hook, ...args], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = /@@cpu ([\d.]+)/.exec(r.stderr ?? "");
  if (!okCodes.includes(r.status ?? -1) || !cpu)
    throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { cpuMs: Number(cpu[1]), wallMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (samples: Sample[]) => ({
  cpuMs: median(samples.map((s) => s.cpuMs)),
  wallMs: median(samples.map((s) => s.wallMs)),
});

const build = spawnSync("npm", ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) throw new Error("build failed");

const baseline: Sample[] = [];
const help: Sample[] = [];
for (let i = 0; i < 3; i++) {
  measure(["-e", "0"]);
  measure([cli, "--help"]);
}
for (let i = 0; i < ROUNDS; i++) {
  baseline.push(measure(["-e", "0"]));
  help.push(measure([cli, "--help"]));
}

const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-cli-"));
const oldDoc = synthContract(3000);
await writeFile(path.join(dir, "old.json"), JSON.stringify(oldDoc));
await writeFile(path.join(dir, "new.json"), JSON.stringify(mutateContract(oldDoc)));
const diffArgs = [
  cli,
  "diff",
  path.join(dir, "old.json"),
  path.join(dir, "new.json"),
  "--format",
  "json",
];
// A real ~100-tool server's change: SKILLPILOT_BENCH_TOOLS_LIST, else the shared corpus's 113-tool
// github-mcp-server change beside the project, else a synthesized list shaped like one.
const sharedPair = path.resolve(
  root,
  "../shared/corpora/diff-real-changes/gh-explicit-hint-defaults-113-tools",
);
const [realOld, realNew] =
  process.env.SKILLPILOT_BENCH_TOOLS_LIST?.split(":") ??
  (existsSync(path.join(sharedPair, "old.json"))
    ? [path.join(sharedPair, "old.json"), path.join(sharedPair, "new.json")]
    : []);
const realLabel = realOld
  ? `real ${path.basename(path.dirname(realOld))}`
  : "113 tools, synthesized";
if (!realOld) {
  const small = synthContract(113);
  await writeFile(path.join(dir, "small-old.json"), JSON.stringify(small, null, 2));
  await writeFile(path.join(dir, "small-new.json"), JSON.stringify(mutateContract(small), null, 2));
}
const realArgs = [
  cli,
  "diff",
  realOld ?? path.join(dir, "small-old.json"),
  realNew ?? path.join(dir, "small-new.json"),
];
measure(diffArgs, [1]);
measure(realArgs, [0, 1]);
const diff: Sample[] = [];
const diffBaseline: Sample[] = [];
const real: Sample[] = [];
for (let i = 0; i < DIFF_ROUNDS; i++) {
  diffBaseline.push(measure(["-e", "0"]));
  diff.push(measure(diffArgs, [1]));
  real.push(measure(realArgs, [0, 1]));
}
await rm(dir, { recursive: true, force: true });

const b = summary(baseline);
const h = summary(help);
const d = summary(diff);
const db = summary(diffBaseline);
const r = summary(real);
const helpRatio = h.cpuMs / b.cpuMs;
const row = (name: string, s: { cpuMs: number; wallMs: number }, base: { cpuMs: number }) =>
  `${name.padEnd(34)} CPU ${s.cpuMs.toFixed(1).padStart(7)} ms  wall ${s.wallMs.toFixed(1).padStart(7)} ms  ` +
  `${(s.cpuMs / base.cpuMs).toFixed(2).padStart(6)}× node -e 0 CPU`;
process.stdout.write(
  `cli benchmark (compiled build, medians of ${ROUNDS} / ${DIFF_ROUNDS} interleaved runs after warm-up)\n` +
    `${row("node -e 0 (baseline)", b, b)}\n` +
    `${row("skillpilot --help", h, b)}\n` +
    `${row("skillpilot diff (3000 tools)", d, db)}\n` +
    `${row(`skillpilot diff (${realLabel})`, r, db)}\n` +
    `target --help CPU ≤ 3× node -e 0: ${helpRatio.toFixed(2)}× ${helpRatio <= 3 ? "met" : "NOT MET"}\n` +
    `target diff 3000 tools < 0.8 s wall: ${(d.wallMs / 1000).toFixed(2)} s ${d.wallMs < 800 ? "met" : "NOT MET"}\n` +
    `target diff ${realLabel} < 0.25 s wall: ${(r.wallMs / 1000).toFixed(2)} s ${r.wallMs < 250 ? "met" : "NOT MET"}\n`,
);
