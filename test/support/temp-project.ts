import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The small contract the emitter golden tests run on (it changes only when the emitters do). */
export const miniContract = path.join(repoRoot, "test/fixtures/mini-contract");

/** What a project needs for the whole release flow (generate, prepare, freeze, verify, serve). */
export const releaseProject = [
  "schemas",
  "release",
  "generated",
  "contracts",
  "skills",
  "ui",
  "curricula",
] as const;

/** Copy the given folders/files of `from` into a fresh temp dir; returns the dir and a cleanup. */
export async function tempProject(
  from: string,
  entries: readonly string[],
): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), "skillpilot-test-"));
  for (const e of entries) await cp(path.join(from, e), path.join(root, e), { recursive: true });
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/**
 * Run git in a throwaway repository with a fixed identity; returns its trimmed standard output.
 */
export const git = (root: string, ...args: string[]): string =>
  execFileSync("git", ["-C", root, ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "ci",
      GIT_AUTHOR_EMAIL: "ci@example.invalid",
      GIT_COMMITTER_NAME: "ci",
      GIT_COMMITTER_EMAIL: "ci@example.invalid",
    },
  }).trim();
