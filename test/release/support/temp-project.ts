import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateFromSources } from "../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../generator/load.js";
import { writeGenerated } from "../../../generator/write.js";
import { freeze } from "../../../release/freeze/freeze.js";
import { prepare } from "../../../release/prepare/prepare.js";
import { recordPublished } from "../../../release/publish/record-published.js";
import { activateUi } from "../../../release/ui/activate-ui.js";
import { buildAllUi } from "../../../release/ui/build-ui.js";

import { git, repoRoot as repo } from "../../support/temp-project.js";

/**
 * A throwaway copy of this project's release inputs (schemas/, generated/, ui/, release/line.json,
 * the allowlist, a skills tree), made self-consistent: generated/ regenerated and activeUi pointing
 * at what ui/ builds to. Tests never touch the real contracts/.
 */
export async function makeTemplateProject(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "sp-release-template-"));
  for (const dir of ["schemas", "ui"])
    await cp(path.join(repo, dir), path.join(root, dir), { recursive: true });
  await mkdir(path.join(root, "release/submission"), { recursive: true });
  for (const file of [
    "release/line.json",
    "release/first-party-allowlist.json",
    "release/submission/test-cases.json",
  ])
    await cp(path.join(repo, file), path.join(root, file));
  await mkdir(path.join(root, "skills", "skillpilot-coach", "references"), { recursive: true });
  await writeFile(
    path.join(root, "skills", "skillpilot-coach", "SKILL.md"),
    "---\nname: skillpilot-coach\n---\nCall get_skillpilot_learning_context first.\n",
  );
  await writeFile(
    path.join(root, "skills", "skillpilot-coach", "references", "flow.md"),
    "One fresh full context per learner message.\n",
  );
  const result = await generateFromSources(await readContractSources(defaultPaths(root)));
  if (!result.model)
    throw new Error(`the project's schemas do not generate: ${JSON.stringify(result.diagnostics)}`);
  await writeGenerated(root, result.files);
  await activateUi(root, await buildAllUi(root, result.model.plugin.contractMajor));
  return root;
}

/** A fresh copy of a template project for one test. */
export async function copyProject(template: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "sp-release-"));
  await cp(template, root, { recursive: true });
  return root;
}

/** Remove a temp project. */
export const removeProject = (root: string) => rm(root, { recursive: true, force: true });

/** Edit a JSON file of a project in place. */
export async function editJson(
  root: string,
  rel: string,
  edit: (doc: Record<string, unknown>) => void,
): Promise<void> {
  const abs = path.join(root, rel);
  const doc = JSON.parse(await readFile(abs, "utf8")) as Record<string, unknown>;
  edit(doc);
  await writeFile(abs, `${JSON.stringify(doc, null, 2)}\n`);
}

/** Regenerate generated/ of a project after a schema edit. */
export async function regenerate(root: string): Promise<void> {
  const result = await generateFromSources(await readContractSources(defaultPaths(root)));
  if (!result.model) throw new Error(JSON.stringify(result.diagnostics));
  await writeGenerated(root, result.files);
}

/** The rule ids of some diagnostics, sorted and deduplicated, for compact assertions. */
export const ruleIds = (
  diagnostics: readonly { ruleId: string; severity: string }[],
  severity = "error",
): string[] =>
  [...new Set(diagnostics.filter((d) => d.severity === severity).map((d) => d.ruleId))].sort();

/**
 * Register mocha hooks that give every test of the enclosing `describe` a fresh copy of one
 * template project; returns a getter for the current copy's root.
 */
export function useProjectCopies(): () => string {
  let template: string;
  let root: string;
  before(async () => {
    template = await makeTemplateProject();
  });
  after(() => removeProject(template));
  beforeEach(async () => {
    root = await copyProject(template);
  });
  afterEach(() => removeProject(root));
  return () => root;
}

/** Make a temp project a git repository with everything committed as its first commit. */
export function commitAll(root: string, message: string): void {
  if (!existsSync(path.join(root, ".git"))) git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-q", "--allow-empty", "-m", message);
}

/**
 * The reason test projects give `record-published`: they have no deployed server to run
 * `verify --live` against (the tests of that evidence record it for real).
 */
export const noLiveServer = "test project without a deployed server";

/** prepare → freeze → record-published of `version` on a project copy, asserting each step. */
export async function publishRelease(root: string, version: string): Promise<void> {
  const at = new Date("2026-11-30T09:00:00Z");
  const prepared = await prepare(root);
  assert.deepEqual(ruleIds(prepared.diagnostics), [], JSON.stringify(prepared.diagnostics));
  assert.equal((await freeze(root, version, at)).outcome, "done");
  const recorded = await recordPublished(root, version, {
    publishedAt: "2026-11-30",
    now: at,
    withoutLiveEvidence: noLiveServer,
  });
  assert.equal(recorded.outcome, "done", JSON.stringify(recorded.diagnostics));
}

/** `skillpilot verify` of the compiled CLI (as CI runs it): exit code and output. */
export function cliVerify(root: string, ...args: string[]): { status: number; output: string } {
  try {
    const out = execFileSync(
      process.execPath,
      [path.join(repo, "bin/skillpilot.js"), "-C", root, "verify", ...args],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    return { status: 0, output: out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { status: err.status, output: `${err.stdout}${err.stderr}` };
  }
}

/** Run the compiled CLI (`node bin/skillpilot.js -C root …`): exit code, stdout and stderr. */
export function cli(
  root: string,
  ...args: string[]
): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(
    process.execPath,
    [path.join(repo, "bin/skillpilot.js"), "-C", root, ...args],
    {
      encoding: "utf8",
    },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
