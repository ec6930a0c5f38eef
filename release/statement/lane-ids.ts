import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The provider lane ids of a project, in order, from its `schemas/lanes.json`; the openai lane
 * alone without that file (as the generator decides). Throws for a file that lists no lanes.
 */
export async function projectLaneIds(root: string): Promise<string[]> {
  const text = await readFile(path.join(root, "schemas/lanes.json"), "utf8").catch(() => undefined);
  if (text === undefined) return ["openai"];
  const doc = JSON.parse(text) as { lanes?: { id?: unknown }[] };
  const ids = (doc.lanes ?? [])
    .map((l) => l.id)
    .filter((id): id is string => typeof id === "string");
  if (ids.length === 0) throw new Error("schemas/lanes.json lists no lanes");
  return ids;
}
