/**
 * `trace check` speed (issue #22): 100 000 events of well-behaved turns (a learner message, the
 * context read, a write with its successor context, every fourth turn a Verified Recall round with
 * its continuation), judged by the compiled CLI as a whole process, against the target of 2 s;
 * `node -e 0` of the same run is printed beside it. Run: npm run bench:trace (BENCH_EVENTS).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const TARGET_S = 2;

const sid = "redacted:session:0123456789abcdef";
const capability = (purpose: string) => `cap1.${purpose}.${"A".repeat(180)}`;
let clock = Date.UTC(2026, 11, 1);
let id = 0;
const lines: string[] = [];
const at = () => {
  clock += 700;
  return new Date(clock).toISOString();
};
const push = (event: unknown) => lines.push(JSON.stringify(event));
const context = (version: number) => ({
  contractMajor: 1,
  learningSessionId: sid,
  stateVersion: version,
  stateSchemaVersion: 4,
  workflowVersion: "coach@2.3",
  curriculumRevision: `curricula-sha256@${"0".repeat(64)}`,
  communicationLocale: "en",
  requiredAction: "teachActiveGoal",
  instruction: "redacted:prose:26-words",
  currentStep: {
    kind: "goal",
    goalId: "git-basics.commit",
    skillId: "git-basics",
    title: "redacted:prose:3-words",
    objective: "redacted:prose:12-words",
    goalVisualization: true,
  },
  allowedActions: ["complete_skillpilot_goal", "start_skillpilot_verified_recall"],
  extensions: {},
});
const call = (name: string, args: Record<string, unknown>, output: Record<string, unknown>) => {
  const n = ++id;
  push({
    at: at(),
    from: "client",
    message: {
      jsonrpc: "2.0",
      id: n,
      method: "tools/call",
      params: { name, arguments: { learningSessionId: sid, ...args } },
    },
  });
  push({
    at: at(),
    from: "server",
    message: {
      jsonrpc: "2.0",
      id: n,
      result: {
        content: [{ type: "text", text: "redacted:prose:6-words" }],
        structuredContent: output,
      },
    },
  });
};
let version = 1;
for (let turn = 0; lines.length < EVENTS; turn++) {
  push({ at: at(), learnerMessage: true });
  call("get_skillpilot_learning_context", {}, context(version));
  if (turn % 4 === 2)
    call(
      "get_skillpilot_verified_recall_answers",
      { batchCapability: capability("b") },
      {
        answers: [{ position: 1, goalId: "git-basics.commit", answer: "redacted:prose:9-words" }],
        gradingCapability: capability(`g${turn}`),
      },
    );
  else if (turn % 4 === 3) {
    call(
      "record_skillpilot_verified_recall_results",
      { gradingCapability: capability(`g${turn - 1}`), assessments: [{ passed: true }] },
      {
        receipt: {
          receiptId: "rcp_0123456789abcdef",
          operation: "record_skillpilot_verified_recall_results",
          stateVersion: ++version,
          recordedAt: at(),
        },
        recalled: { passed: 1, failed: 0 },
        continuation: {
          action: "renderGoalVisualizationThenTeachActiveGoal",
          consentRequired: false,
          toolCall: {
            name: "render_skillpilot_goal_visualization",
            arguments: { goalId: "git-basics.commit", expectedStateVersion: version },
          },
        },
      },
    );
    call(
      "render_skillpilot_goal_visualization",
      { goalId: "git-basics.commit", expectedStateVersion: version },
      { rendered: true, goalId: "git-basics.commit", stateVersion: version },
    );
  } else
    call(
      "complete_skillpilot_goal",
      {
        expectedStateVersion: version,
        clientRequestId: randomUUID(),
        decision: "needsMorePractice",
      },
      {
        receipt: {
          receiptId: "rcp_0123456789abcdef",
          operation: "complete_skillpilot_goal",
          stateVersion: ++version,
          recordedAt: at(),
        },
        successor: context(version),
      },
    );
}
const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-bench-trace-"));
const file = path.join(dir, "trace.jsonl");
await writeFile(file, `${lines.slice(0, EVENTS).join("\n")}\n`);
// Well-behaved traffic but for one capability per round the trace never issued (the batch's, its
// start is not in this synthetic trace): the reporting path is measured too.
/** Wall and CPU seconds (user + system, from GNU time when installed) of one child process. */
const time = (args: string[]): { wall: number; cpu: number } => {
  const gnuTime = existsSync("/usr/bin/time");
  const argv = gnuTime ? ["-f", "%U %S", process.execPath, ...args] : args;
  const start = process.hrtime.bigint();
  const run = spawnSync(gnuTime ? "/usr/bin/time" : process.execPath, argv, {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const [user, system] = (/([\d.]+) ([\d.]+)\s*$/.exec(run.stderr ?? "") ?? [])
    .slice(1)
    .map(Number);
  return { wall, cpu: user + system };
};
try {
  const best = (runs: { wall: number; cpu: number }[]) => ({
    wall: Math.min(...runs.map((r) => r.wall)),
    cpu: Math.min(...runs.map((r) => r.cpu)),
  });
  const check = best(
    [1, 2, 3].map(() => time(["bin/skillpilot.js", "trace", "check", file, "--format", "json"])),
  );
  const node = best([1, 2, 3].map(() => time(["-e", "0"])));
  const mb = (lines.join("\n").length / 1e6).toFixed(1);
  process.stdout.write(
    `trace check: ${EVENTS} events (${mb} MB), whole process, best of 3: ${check.wall.toFixed(2)} s wall, ` +
      `${check.cpu.toFixed(2)} s CPU (node -e 0: ${node.wall.toFixed(2)} s wall, ${node.cpu.toFixed(2)} s CPU)\n` +
      `wall / target: ${(check.wall / TARGET_S).toFixed(2)} of ${TARGET_S} s (${check.wall < TARGET_S ? "met" : "NOT met"}); ` +
      `CPU / target: ${(check.cpu / TARGET_S).toFixed(2)} (${check.cpu < TARGET_S ? "met" : "NOT met"})\n`,
  );
} finally {
  if (process.env.BENCH_KEEP) process.stdout.write(`kept ${file}\n`);
  else await rm(dir, { recursive: true, force: true });
}
