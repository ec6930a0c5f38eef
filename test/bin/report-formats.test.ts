import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import AjvDraft04 from "ajv-draft-04";
import { publishedDir } from "../../contract-model/project/project-layout.js";
import {
  copyProject,
  makeTemplateProject,
  removeProject,
} from "../release/support/temp-project.js";
import { repoRoot } from "../support/temp-project.js";

const cli = path.join(repoRoot, "bin/skillpilot.js");
const corpus = path.join(repoRoot, "test/fixtures/diff-corpus");

/** Run the real CLI against a project; stdout and stderr kept apart, as a CI step sees them. */
function skillpilot(root: string, args: string[]) {
  const run = spawnSync(process.execPath, [cli, "-C", root, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const sarifSchema = JSON.parse(
  await readFile(
    path.join(repoRoot, "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"),
    "utf8",
  ),
);
const ajv = new AjvDraft04.default({ strict: false, validateFormats: false, unicodeRegExp: false });
const validSarif = ajv.compile(sarifSchema);

/**
 * Run a command with `--format sarif` and `--format json` and assert: the expected exit code,
 * stdout is exactly one parseable document (a schema-valid SARIF log; `{"diagnostics":[…]}`), and
 * it holds an error exactly when the command failed. Returns the parsed JSON report.
 */
function expectReports(
  root: string,
  args: string[],
  code: 0 | 1,
  opts: { label?: string; beforeEach?: () => void } = {},
): { diagnostics: { ruleId: string; severity: string }[] } {
  const label = opts.label ?? args.join(" ");
  opts.beforeEach?.();
  const sarif = skillpilot(root, [...args, "--format", "sarif"]);
  assert.equal(sarif.code, code, `${label} --format sarif exit code; stderr: ${sarif.stderr}`);
  const log = JSON.parse(sarif.stdout);
  assert.equal(
    validSarif(log),
    true,
    `${label}: SARIF 2.1.0 valid: ${JSON.stringify(validSarif.errors)}`,
  );
  assert.equal(log.runs.length, 1);
  assert.equal(
    log.runs[0].results.some((r: { level: string }) => r.level === "error"),
    code === 1,
    `${label}: SARIF errors iff exit 1`,
  );
  opts.beforeEach?.();
  const json = skillpilot(root, [...args, "--format", "json"]);
  assert.equal(json.code, code, `${label} --format json exit code; stderr: ${json.stderr}`);
  const report = JSON.parse(json.stdout);
  assert.ok(Array.isArray(report.diagnostics), `${label}: {"diagnostics":[…]} on stdout`);
  assert.equal(
    report.diagnostics.some((d: { severity: string }) => d.severity === "error"),
    code === 1,
    `${label}: JSON errors iff exit 1`,
  );
  return report;
}

describe(
  "bin: --format puts one complete machine report on stdout for every " +
    "diagnostic-producing command (L12, L12.2, L12.3)",
  function () {
    // Dozens of CLI spawns (tsx start-up each) on a possibly loaded CI machine.
    this.timeout(600_000);
    let template: string;
    let root: string;
    let version: string;
    before(async () => {
      template = await makeTemplateProject();
      root = await copyProject(template);
      version = JSON.parse(
        await readFile(path.join(root, "schemas/plugin.json"), "utf8"),
      ).packageVersion;
      // A skills tree that passes skill-lint, so the clean run is clean.
      await writeFile(
        path.join(root, "skills/skillpilot-coach/SKILL.md"),
        "---\nname: skillpilot-coach\ndescription: Coach a learner.\n---\nCall " +
          "`get_skillpilot_learning_context` first.\n",
      );
      // The snapshot records the skills' content hashes: regenerate after editing a skill.
      assert.equal(skillpilot(root, ["generate"]).code, 0);
    });
    after(async () => {
      await removeProject(root);
      await removeProject(template);
    });

    it("generate: a clean --check and a drifted generated/ (L12)", async () => {
      expectReports(root, ["generate", "--check"], 0);
      const clean = skillpilot(root, ["generate", "--check", "--format", "sarif"]);
      assert.match(
        clean.stderr,
        /generated\/ is up to date/,
        "the status line goes to stderr for machine formats",
      );
      const file = path.join(root, "generated/tools.gen.ts");
      const original = await readFile(file, "utf8");
      await writeFile(file, original.replace("Load the complete", "Load the whole"));
      const drift = expectReports(root, ["generate", "--check"], 1);
      assert.ok(drift.diagnostics.some((d) => d.ruleId === "GENERATED_EDITED"));
      await writeFile(file, original);
    });

    it("handlers scaffold: created files on success, the schema problem on failure", async () => {
      expectReports(root, ["handlers", "scaffold", "backend/handlers"], 0);
      const file = path.join(root, "schemas/tools/complete_skillpilot_goal.json");
      const original = await readFile(file, "utf8");
      await writeFile(file, "{\n");
      try {
        assert.ok(
          expectReports(root, ["handlers", "scaffold", "backend/other"], 1).diagnostics.some(
            (d) => d.ruleId === "SCHEMA_PARSE_ERROR",
          ),
        );
      } finally {
        await writeFile(file, original);
      }
    });

    it("prepare, freeze, unfreeze, record-published: success and refusal (L3, L4)", () => {
      expectReports(root, ["prepare", "--version", "9.9.9"], 1);
      expectReports(root, ["prepare"], 0);
      expectReports(root, ["freeze", "9.9.9"], 1);
      expectReports(root, ["freeze", version], 0);
      expectReports(root, ["unfreeze", "9.9.9", "--reason", "wrong version"], 1);
      // unfreeze succeeds once per freeze: freeze again before each format.
      const refreeze = () => assert.equal(skillpilot(root, ["freeze", version]).code, 0);
      expectReports(root, ["unfreeze", version, "--reason", "review rejected"], 0, {
        beforeEach: refreeze,
      });
      expectReports(root, ["unfreeze", version, "--reason", "review rejected"], 1, {
        label: "unfreeze when nothing is frozen",
      });
      expectReports(root, ["record-published", version, "--published-at", "2026-11-30"], 1, {
        label: "record-published without a freeze",
      });
      expectReports(root, ["freeze", version], 0);
      expectReports(root, ["record-published", version, "--published-at", "2026-11-30"], 1, {
        label: "record-published without live evidence",
      });
      expectReports(
        root,
        [
          "record-published",
          version,
          "--published-at",
          "2026-11-30",
          "--without-live-evidence",
          "no deployed server in this test",
        ],
        0,
      );
    });

    // Runs on the project the release steps above published (tests of this describe share one copy,
    // in order).
    it(
      "verify, diff, lint and skill-lint: clean project, then failures (L4, L7, " + "L12.1–L12.3)",
      async () => {
        expectReports(root, ["verify"], 0);
        expectReports(root, ["lint"], 0);
        expectReports(root, ["skill-lint"], 0);

        await writeFile(
          path.join(root, "bad-list.json"),
          JSON.stringify({
            tools: [
              {
                name: "x",
                description: "d",
                inputSchema: { type: "object", properties: { comment: { type: "string" } } },
              },
            ],
          }),
        );
        expectReports(root, ["lint", "bad-list.json"], 1);
        await mkdir(path.join(root, "bad-skills/x"), { recursive: true });
        await writeFile(
          path.join(root, "bad-skills/x/SKILL.md"),
          "---\nname: x\ndescription: X.\n---\nCall `start_skillpilot_exam` first.\n",
        );
        assert.ok(
          expectReports(root, ["skill-lint", "--skills", "bad-skills"], 1).diagnostics.some(
            (d) => d.ruleId === "SKILL_UNKNOWN_TOOL",
          ),
        );

        // diff's JSON is its own result document; SARIF is the shared renderer.
        const pair = (name: string) => [
          path.join(corpus, name, "old.json"),
          path.join(corpus, name, "new.json"),
        ];
        for (const [args, code] of [
          [[], 0],
          [pair("tool-added"), 0],
          [pair("input-required-added"), 1],
        ] as const) {
          const sarif = skillpilot(root, ["diff", ...args, "--format", "sarif"]);
          assert.equal(sarif.code, code, sarif.stderr);
          assert.equal(validSarif(JSON.parse(sarif.stdout)), true);
          const json = skillpilot(root, ["diff", ...args, "--format", "json"]);
          assert.equal(json.code, code, json.stderr);
          assert.equal(JSON.parse(json.stdout).breaking, code === 1);
        }

        await appendFile(
          path.join(root, publishedDir("skillpilot-coach", version), "package/plugin.json"),
          "\n",
        );
        assert.ok(
          expectReports(root, ["verify"], 1).diagnostics.some(
            (d) => d.ruleId === "PUBLISHED_TAMPERED",
          ),
        );
      },
    );

    it("diff with nothing published and input errors still print a document (L12.2)", async () => {
      const fresh = await copyProject(template);
      try {
        // Nothing to compare against is never silent: the notice is in the document of every
        // format (exit 0, a warning).
        const sarif = skillpilot(fresh, ["diff", "--format", "sarif"]);
        assert.equal(sarif.code, 0);
        assert.equal(validSarif(JSON.parse(sarif.stdout)), true);
        assert.deepEqual(
          JSON.parse(sarif.stdout).runs[0].results.map((r: { ruleId: string; level: string }) => [
            r.ruleId,
            r.level,
          ]),
          [["DIFF_NO_BASELINE", "warning"]],
        );
        const json = JSON.parse(skillpilot(fresh, ["diff", "--format", "json"]).stdout);
        assert.deepEqual(
          json.problems.map((p: { ruleId: string }) => p.ruleId),
          ["DIFF_NO_BASELINE"],
        );
        assert.match(json.note, /no published snapshot/);
        for (const [format, shape] of [
          [
            "text",
            /^contracts\/published {2}warning {2}DIFF_NO_BASELINE {2}no published snapshot/m,
          ],
          ["github", /^::warning file=contracts\/published,title=DIFF_NO_BASELINE::no published/m],
          ["markdown", /\| ⚠️ warning \| `DIFF_NO_BASELINE` \| contracts\/published \|/],
        ] as const) {
          const none = skillpilot(fresh, ["diff", "--format", format]);
          assert.equal(none.code, 0, format);
          assert.match(none.stdout, shape, format);
        }
        const unreadable = skillpilot(fresh, [
          "diff",
          "missing.json",
          "generated/contract.snapshot.json",
          "--format",
          "json",
        ]);
        assert.equal(unreadable.code, 2);
        assert.ok(JSON.parse(unreadable.stdout).diagnostics.length > 0);
      } finally {
        await removeProject(fresh);
      }
    });

    it(
      "ui build: the URI listing moves to stderr and stdout is a report; --out " +
        "resolves against -C",
      async () => {
        const built = skillpilot(root, ["ui", "build", "--out", "preview", "--format", "sarif"]);
        assert.equal(built.code, 0, built.stderr);
        assert.equal(validSarif(JSON.parse(built.stdout)), true);
        assert.match(built.stderr, /ui:\/\/skillpilot\/coach\/1\/sha256-[0-9a-f]{64}\/index\.html/);
        assert.ok(
          (await stat(path.join(root, "preview/skillpilot/coach/1"))).isDirectory(),
          "written below the project root, not the working directory",
        );
      },
    );

    it("text keeps the human output: lint prints its report and counts on stdout", () => {
      const text = skillpilot(root, ["lint"]);
      assert.equal(text.code, 0);
      assert.match(text.stdout, /0 error\(s\), \d+ warning\(s\)/);
    });
  },
);
