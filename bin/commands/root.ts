import path from "node:path";
import type { Command } from "commander";
import { defaultPaths, type ProjectPaths } from "../../generator/load.js";

/** The project paths selected by the global `--root` option. */
export function projectPaths(command: Command): ProjectPaths {
  const root = (command.optsWithGlobals() as { root?: string }).root ?? process.cwd();
  return defaultPaths(path.resolve(root));
}

/**
 * A path given on the command line, resolved the one way every subcommand does: relative paths
 * are relative to `-C/--root` (default: the working directory), absolute paths stay as they are.
 */
export function rootRelative(command: Command, given: string): string {
  return path.resolve(projectPaths(command).root, given);
}
