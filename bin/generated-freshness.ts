import path from "node:path";
import { generatedStaleness } from "../contract-model/project/generated-manifest.js";
import { projectLayout } from "../contract-model/project/project-layout.js";

/**
 * The one-line warning that `generated/` of the project at `root` is behind `schemas/` (or was
 * edited by hand), so what a command reads from it is not what the sources describe; undefined
 * when it is current or has no manifest to judge by. `lint`, `contract show` and `start` print it
 * the same way (see {@link warnStaleGenerated}).
 */
export async function staleGeneratedWarning(root: string): Promise<string | undefined> {
  const stale = await generatedStaleness(root);
  if (!stale) return undefined;
  const [file, ...rest] = stale.sources;
  const more = rest.length ? ` and ${rest.length} more` : "";
  if (file)
    return (
      `${projectLayout.generatedDir}/ is older than ${file}${more}: ` +
      "run `skillpilot generate` to bring it up to date"
    );
  const [edited] = stale.outputs;
  return edited
    ? `${edited} was edited by hand: run \`skillpilot generate\` to restore it`
    : undefined;
}

/**
 * Print {@link staleGeneratedWarning} on stderr as `skillpilot: warning: …` when there is one. With
 * `file`, only when it is the project's own snapshot (another file is not judged by `generated/`).
 */
export async function warnStaleGenerated(root: string, file?: string): Promise<void> {
  if (
    file !== undefined &&
    path.resolve(root, file) !== path.resolve(root, projectLayout.snapshotFile)
  )
    return;
  const warning = await staleGeneratedWarning(root);
  if (warning) process.stderr.write(`skillpilot: warning: ${warning}\n`);
}
