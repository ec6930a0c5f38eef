import { readFile } from "node:fs/promises";
import path from "node:path";
import { pointerSegments } from "../../../../diagnostics/locate.js";
import type { Diagnostic } from "../../../../diagnostics/diagnostic.js";
import { generateFromSources } from "../../../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../../../generator/load.js";
import { miniContract, repoRoot } from "../../../support/temp-project.js";

/** One edit of a source file of the fixture contract: a JSON value set or deleted, or new text. */
export interface Edit {
  file: string;
  pointer?: string;
  value?: unknown;
  delete?: boolean;
  text?: string;
}

/** Apply one fixture edit to a file's JSON text. */
export function applyEdit(text: string, edit: Edit): string {
  if (edit.text !== undefined) return edit.text;
  const json = JSON.parse(text);
  const segments = pointerSegments(edit.pointer!);
  const last = segments.pop()!;
  let node = json;
  for (const s of segments) node = node[s];
  if (edit.delete) delete node[last];
  else node[last] = edit.value;
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** The edits of a bad-schema fixture (`test/fixtures/bad-schemas/<name>.json`). */
export async function badSchemaEdits(name: string): Promise<Edit[]> {
  const file = path.join(repoRoot, "test/fixtures/bad-schemas", `${name}.json`);
  return (JSON.parse(await readFile(file, "utf8")) as { edits: Edit[] }).edits;
}

/**
 * What the generator reports on a contract once edited in memory: by default the fixture contract
 * (test/fixtures/mini-contract), or the project's own (`repoRoot`).
 */
export async function generateEdited(
  edits: readonly Edit[],
  root = miniContract,
): Promise<Diagnostic[]> {
  const sources = await readContractSources(defaultPaths(root));
  const files = sources.files.map((f) => {
    const own = edits.filter((e) => e.file === f.file);
    return { file: f.file, text: own.reduce(applyEdit, f.text) };
  });
  return (await generateFromSources({ ...sources, files })).diagnostics;
}

/** The findings of one rule on the edited fixture contract, as [severity, file, pointer, message]. */
export async function generatorFindings(
  rule: string,
  edits: readonly Edit[],
  root = miniContract,
): Promise<[string, string | undefined, string | undefined, string][]> {
  return (await generateEdited(edits, root))
    .filter((d) => d.ruleId === rule)
    .map((d) => [d.severity, d.location.file, d.location.pointer, d.message]);
}
