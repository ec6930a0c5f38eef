/**
 * `npm run fuzz`: coverage-guided fuzzing of the MCP ingress (the `/mcp` edge, its body reader and
 * message policy, every MCP mount) and of `tools/call` arguments, against a fixture server in this
 * process. Block coverage is started before the runtime is loaded (it is imported below, after
 * it), so every runtime function is counted block by block.
 */
import { parseArgs } from "node:util";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BlockCoverage } from "./support/block-coverage.js";

const usage = `Usage: npm run fuzz -- [options]

Fuzz the MCP endpoints of a local fixture server with requests derived from the tool schemas and
mutated further when they reach new code (V8 block coverage of runtime/). Two oracles judge every
answer: no HTTP 5xx or internal error, and no structuredContent outside the tool's output schema.

Options:
  --iterations N   requests per run (env FUZZ_ITERATIONS; default 3000)
  --seconds S      wall-clock limit per run (env FUZZ_SECONDS; default 600)
  --seed N         seed of the run's choices (env FUZZ_SEED; default random, printed)
  --baseline       also run a pure random baseline of the same budget and compare coverage
  --plant DEFECT   serve a planted defect (output-schema, internal-error) and stop at the
                   first finding: a check that the fuzzer finds it within the budget
  --json           print the reports as JSON
  -h, --help       show this help

Known defects outside this repository are shown as "known" and do not fail the run.
Exit status: 0 nothing found, 1 findings, 2 usage error.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

function count(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) fail(`${name} must be a whole number, got "${text}"`);
  return value;
}

let parsed: ReturnType<typeof parseArgs<{ options: typeof spec }>>;
const spec = {
  iterations: { type: "string" },
  seconds: { type: "string" },
  seed: { type: "string" },
  baseline: { type: "boolean" },
  plant: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
try {
  parsed = parseArgs({ options: spec, allowPositionals: false });
} catch (error) {
  fail((error as Error).message);
}
const { values } = parsed;
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const env = process.env;
const iterations = count("--iterations", values.iterations ?? env.FUZZ_ITERATIONS, 3000);
const seconds = count("--seconds", values.seconds ?? env.FUZZ_SECONDS, 600);
const seed = count("--seed", values.seed ?? env.FUZZ_SEED, Math.floor(Math.random() * 2 ** 31));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const coverage = new BlockCoverage(path.join(root, "runtime"));
await coverage.start();
const { fuzzSession, plantedDefectNames } = await import("./support/fuzz-session.js");
const plant = values.plant as (typeof plantedDefectNames)[number] | undefined;
if (plant !== undefined && !plantedDefectNames.includes(plant))
  fail(`--plant must be one of ${plantedDefectNames.join(", ")}, got "${plant}"`);

const reports = await fuzzSession(coverage, {
  seed,
  iterations,
  timeLimitMs: seconds * 1000,
  modes: values.baseline ? ["guided", "random"] : ["guided"],
  ...(plant && { plant, stopAtFirst: true }),
});
await coverage.stop();

if (values.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
else
  for (const r of reports) {
    process.stdout.write(
      `${r.mode === "guided" ? "coverage-guided" : "random baseline"}: seed ${r.seed}, ` +
        `${r.iterations} requests in ${(r.elapsedMs / 1000).toFixed(1)} s, ${r.blocks} blocks of ` +
        `runtime/ reached, ${r.corpus} inputs kept, ` +
        `${r.findings.filter((f) => !f.known).length} findings\n`,
    );
    for (const f of r.findings)
      process.stdout.write(
        `  ${f.known ? `known (${f.known})` : f.oracle} after ${f.iteration} requests: ` +
          `${f.detail}\n` +
          `    ${f.request.method} ${f.request.path} (credentials: ${f.request.auth}) ` +
          `${JSON.stringify(f.request.headers)}\n    ${f.request.body.slice(0, 600)}\n`,
      );
  }
process.exit(reports.some((r) => r.findings.some((f) => !f.known)) ? 1 : 0);
