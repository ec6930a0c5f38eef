import path from "node:path";
import type { Command } from "commander";
import { defaultPaths, type ProjectPaths } from "../../generator/load.js";

/** The project paths selected by the global `--root` option. */
export function projectPaths(command: Command): ProjectPaths {
  const root = (command.optsWithGlobals() as { root?: string }).root ?? process.cwd();
  return defaultPaths(path.resolve(root));
}
