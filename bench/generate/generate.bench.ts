/**
 * Generator speed (issue #2). Prints, from one run:
 *  - cold-process `generate` and `generate --check` on the V1 contract, against a cold `node -e 0`
 *    baseline (targets: generate < 3 s, --check < 2 s);
 *  - in-process generation of synthesized contracts of 100/300/1000 tools, with t(1000)/t(100)
 *    (target ≤ 12, i.e. no worse than linear plus fixed cost).
 * Run: npm run bench:generate
 */
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { miniContract, repoRoot, tempProject } from "../../test/support/temp-project.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeProcess(args: string[], runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, args, { stdio: "ignore" });
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function synthesized(n: number) {
  const base = await readContractSources(defaultPaths(miniContract));
  const template = JSON.parse(base.files.find((f) => f.file.endsWith("tools/set_mood.json"))!.text);
  const files = [...base.files];
  for (let i = 0; i < n; i++) {
    const name = `synthetic_tool_${String(i).padStart(4, "0")}`;
    const tool = structuredClone(template);
    tool.$id = tool.$id.replace(/set_mood$/, name);
    tool.name = name;
    tool.title = `Synthetic ${i}`;
    tool.description = `Synthetic write tool number ${i} for the generator scaling benchmark.`;
    tool.input.properties.mood = { title: `Mood${i}`, enum: ["calm", "busy", `state${i}`] };
    tool.input.properties.count = { type: "integer", minimum: 0, maximum: i + 1 };
    files.push({ file: `schemas/tools/${name}.json`, text: JSON.stringify(tool, null, 2) });
  }
  return { ...base, files };
}

// CPU time (user+system) of this process, best of `runs`: the machine is shared, and other
// processes' load inflates wall-clock time far more than our own CPU time.
async function timeInProcess(n: number, runs = 3): Promise<number> {
  const sources = await synthesized(n);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.cpuUsage();
    const result = await generateFromSources(sources);
    const t = process.cpuUsage(t0);
    times.push((t.user + t.system) / 1000);
    if (result.diagnostics.length) throw new Error(JSON.stringify(result.diagnostics.slice(0, 3)));
  }
  return Math.min(...times);
}

const project = await tempProject(repoRoot, ["schemas", "release/line.json", "generated"]);
try {
  const cli = path.join(repoRoot, "bin/skillpilot.js");
  const baseline = timeProcess(["-e", "0"]);
  const gen = timeProcess([cli, "-C", project.root, "generate"]);
  const check = timeProcess([cli, "-C", project.root, "generate", "--check"]);
  console.log(`cold node -e 0 (baseline)      ${baseline.toFixed(0)} ms`);
  console.log(
    `cold generate (V1)             ${gen.toFixed(0)} ms  = ` +
      `${(gen / baseline).toFixed(1)}x baseline  target < 3000 ms: ` +
      `${gen < 3000 ? "ok" : "MISSED"}`,
  );
  console.log(
    `cold generate --check (V1)     ${check.toFixed(0)} ms  = ` +
      `${(check / baseline).toFixed(1)}x baseline  target < 2000 ms: ` +
      `${check < 2000 ? "ok" : "MISSED"}`,
  );
  await timeInProcess(10, 1); // warm up module loading and JIT
  const t: Record<number, number> = {};
  for (const n of [100, 300, 1000]) {
    t[n] = await timeInProcess(n, n >= 1000 ? 3 : 5);
    console.log(
      `in-process generate, ${String(n).padStart(4)} tools  ${t[n]!.toFixed(0)} ` +
        `ms CPU  (${(t[n]! / n).toFixed(2)} ms/tool)`,
    );
  }
  const ratio = t[1000]! / t[100]!;
  console.log(
    `t(1000)/t(100) = ${ratio.toFixed(2)}  target ≤ 12: ${ratio <= 12 ? "ok" : "MISSED"}`,
  );
} finally {
  await project.cleanup();
}
