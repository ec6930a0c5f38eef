import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { hasErrors, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { generateFromSources } from "../../generator/generate.js";
import { defaultPaths, readContractSources } from "../../generator/load.js";
import { writeGenerated } from "../../generator/write.js";
import { lineFile } from "../line/check-line.js";
import type { UiArtifact } from "./build-ui.js";
import { recordUiActivations, retainUiArtifact } from "../../contract-model/ui/ui-store.js";

/** What `ui build --activate` changed. */
export interface ActivateResult {
  diagnostics: Diagnostic[];
  /** Resource names whose active URI changed. */
  changed: string[];
  /** generated/ files rewritten. */
  regenerated: string[];
}

/**
 * Point `release/line.json` `activeUi` at the given artifacts and regenerate, so descriptors bind
 * the new URIs (L10). Other fields keep their order and values. When the result does not generate
 * cleanly, line.json is restored and the diagnostics are returned. Otherwise each activated page is
 * retained in the immutable UI store at once and recorded in `contracts/ui-activations.json`, so
 * every URI a server may serve stays readable with identical bytes from its first delivery, and a
 * lost store file is detected (L10).
 */
export async function activateUi(
  root: string,
  artifacts: readonly UiArtifact[],
): Promise<ActivateResult> {
  const abs = path.join(root, lineFile);
  const original = await readFile(abs, "utf8");
  const line = JSON.parse(original) as Record<string, unknown>;
  const active = { ...((line.activeUi as Record<string, string> | undefined) ?? {}) };
  const changed = artifacts.filter((a) => active[a.name] !== a.uri).map((a) => a.name);
  for (const a of artifacts) active[a.name] = a.uri;
  line.activeUi = Object.fromEntries(Object.entries(active).sort(([a], [b]) => (a < b ? -1 : 1)));
  const text = `${JSON.stringify(line, null, 2)}\n`;
  if (text !== original) await writeFile(abs, text);
  const result = await generateFromSources(await readContractSources(defaultPaths(root)));
  if (hasErrors(result.diagnostics)) {
    await writeFile(abs, original);
    return { diagnostics: result.diagnostics, changed: [], regenerated: [] };
  }
  for (const a of artifacts) await retainUiArtifact(root, a.uri, a.html);
  await recordUiActivations(
    root,
    artifacts.map((a) => ({ uri: a.uri, name: a.name })),
  );
  return {
    diagnostics: result.diagnostics,
    changed,
    regenerated: await writeGenerated(root, result.files),
  };
}
