// Release benchmarks (issue #6): `prepare` of the V1 plugin against its 3 s budget, and archive
// throughput on a 50 MB synthetic tree against `tar --sort=name | gzip -9` measured in the same
// run.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { collectTree } from "../../contract-model/file-tree/collect-tree.js";
import { buildTar, gzipDeterministic } from "../../release/bundle/tar.archive.js";
import { buildZip } from "../../release/bundle/zip.archive.js";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { prepare } from "../../release/prepare/prepare.js";
import {
  copyProject,
  makeTemplateProject,
  removeProject,
} from "../../test/release/support/temp-project.js";

const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

async function timed(fn: () => Promise<unknown> | unknown, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Text-like content: pseudo-random words with numbers from a fixed seed. */
function syntheticText(bytes: number, seed: number): Buffer {
  const words = [
    "skill",
    "pilot",
    "coach",
    "goal",
    "recall",
    "state",
    "version",
    "learner",
    "context",
    "batch",
    "the",
    "a",
    "of",
    "and",
    "mastery",
    "frontier",
    "curriculum",
    "option",
  ];
  const parts: string[] = [];
  let size = 0;
  let s = seed;
  while (size < bytes) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const w = words[s % words.length] + ((s >> 8) % 11 === 0 ? `-${(s >> 4) % 1000}\n` : " ");
    parts.push(w);
    size += w.length;
  }
  return Buffer.from(parts.join("").slice(0, bytes));
}

/** Incompressible bytes from a fixed seed. */
function syntheticBytes(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let s = seed;
  for (let i = 0; i < bytes; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out[i] = s >> 16;
  }
  return out;
}

async function benchPrepare(): Promise<void> {
  const template = await makeTemplateProject();
  try {
    // warm-up: module load and JIT
    await generateFromSources(await readContractSources(defaultPaths(template)));
    const baseline = await timed(
      async () => generateFromSources(await readContractSources(defaultPaths(template))),
      3,
    );
    const roots = await Promise.all([0, 1, 2].map(() => copyProject(template)));
    let i = 0;
    const cold = await timed(async () => {
      const r = await prepare(roots[i++]);
      if (!r.draft) throw new Error(JSON.stringify(r.diagnostics));
    }, 3);
    await Promise.all(roots.map(removeProject));
    const budget = 3000;
    console.log(`prepare (V1 plugin, fresh draft, median of 3): ${fmt(cold)}`);
    console.log(
      `  baseline: in-process generate of the same schemas: ${fmt(baseline)} -> ` +
        `prepare/generate ratio ${(cold / baseline).toFixed(2)}`,
    );
    console.log(
      `  budget 3 s: ${(cold / budget).toFixed(2)} of budget -> ${cold < budget ? "PASS" : "FAIL"}`,
    );
  } finally {
    await removeProject(template);
  }
}

async function benchArchives(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "sp-bench-release-"));
  try {
    const tree = path.join(work, "tree");
    const total = 50 * MB;
    const files = 500;
    for (let i = 0; i < files; i++) {
      const abs = path.join(tree, `d${i % 20}`, `file-${i}.txt`);
      await mkdir(path.dirname(abs), { recursive: true });
      // Half the files text, half incompressible bytes (images, fonts): a mix like a real package.
      await writeFile(
        abs,
        i % 2 ? syntheticText(total / files, i + 1) : syntheticBytes(total / files, i + 1),
      );
    }
    // Interleaved rounds, so load from other processes on the machine hits baseline and ours alike.
    const rounds = { baseline: [] as number[], ours: [] as number[], zip: [] as number[] };
    for (let round = 0; round < 3; round++) {
      rounds.baseline.push(
        await timed(
          () =>
            execFileSync("sh", [
              "-c",
              `tar --sort=name -cf - -C "${tree}" . | gzip -9 > "${work}/baseline.tar.gz"`,
            ]),
          1,
        ),
      );
      rounds.ours.push(
        await timed(async () => gzipDeterministic(await buildTar(await collectTree(tree))), 1),
      );
      rounds.zip.push(await timed(async () => buildZip(await collectTree(tree)), 1));
    }
    const [baseline, ours, zip] = [
      median(rounds.baseline),
      median(rounds.ours),
      median(rounds.zip),
    ];
    const mbps = (ms: number) => `${(total / MB / (ms / 1000)).toFixed(1)} MB/s`;
    console.log(`archives (50 MB synthetic tree, ${files} files, median of 3):`);
    console.log(`  baseline tar --sort=name | gzip -9: ${fmt(baseline)} (${mbps(baseline)})`);
    console.log(
      `  skillpilot tar.gz (read + USTAR + gzip 9): ${fmt(ours)} (${mbps(ours)}) ` +
        `-> throughput ratio ${(baseline / ours).toFixed(2)} (need >= 0.50: ` +
        `${baseline / ours >= 0.5 ? "PASS" : "FAIL"})`,
    );
    console.log(
      `  skillpilot zip (read + deflate 9): ${fmt(zip)} (${mbps(zip)}) -> ` +
        `throughput ratio ${(baseline / zip).toFixed(2)}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await benchPrepare();
await benchArchives();
