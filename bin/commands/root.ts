import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { defaultPaths, type ProjectPaths } from "../../generator/load.js";

/** The file whose presence makes a folder a SkillPilot project root. */
const projectMarker = projectLayout.pluginFile;

/**
 * The nearest folder at or above `from` that holds the project marker (`schemas/plugin.json`), as
 * git and npm find their root from a subfolder; undefined when no folder up to the file-system
 * root does.
 */
export function findProjectRoot(from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, projectMarker))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The `-C/--root` given on the command line, resolved; undefined when none was given. */
function givenRoot(command: Command): string | undefined {
  const root = (command.optsWithGlobals() as { root?: string }).root;
  return root === undefined ? undefined : path.resolve(root);
}

/**
 * The project paths: those of `-C/--root` when given (used as is), else of the nearest project
 * folder at or above the working directory. Throws a one-line usage message naming the folder
 * searched from when there is none.
 */
export function projectPaths(command: Command): ProjectPaths {
  const given = givenRoot(command);
  if (given !== undefined) return defaultPaths(given);
  const found = findProjectRoot(process.cwd());
  if (found === undefined)
    throw new Error(
      `no SkillPilot project (a folder holding ${projectMarker}) in ${process.cwd()} or any ` +
        "folder above it: run inside a project or pass -C <dir>",
    );
  return defaultPaths(found);
}

/**
 * A path given on the command line, resolved the one way every subcommand does: relative paths
 * are relative to the project root (`-C/--root`, else the nearest project folder upward, else the
 * working directory), absolute paths stay as they are.
 */
export function rootRelative(command: Command, given: string): string {
  const root = givenRoot(command) ?? findProjectRoot(process.cwd()) ?? process.cwd();
  return path.resolve(root, given);
}
