import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { hasErrors } from "../diagnostics/diagnostic.js";
import { withLines } from "../diagnostics/locate.js";
import { buildModel } from "./build-model.js";
import type { ContractSources } from "./build-phases/sources.js";
import { emitAll } from "./emit/index.js";
import type { EmittedFile } from "./emit/emitted-file.js";
import type { ContractModel } from "./model.js";
import { isStrictModeError, strictModeDiagnostic } from "./strict-schema.js";

export interface GenerateResult {
  model?: ContractModel;
  files: EmittedFile[];
  diagnostics: Diagnostic[];
}

/** The whole pipeline over in-memory sources: validate, build the model, run the emitters. */
export async function generateFromSources(sources: ContractSources): Promise<GenerateResult> {
  const { model, diagnostics } = buildModel(sources);
  const texts = new Map(sources.files.map((f) => [f.file, f.text]));
  const located = withLines(diagnostics, (file) => texts.get(file));
  if (!model || hasErrors(located)) return { files: [], diagnostics: located };
  try {
    return { model, files: await emitAll(model), diagnostics: located };
  } catch (error) {
    // A schema Ajv's strict mode refuses (no generator rule caught it first) is the schema's
    // problem, reported like every other one, not a crash.
    if (!isStrictModeError(error)) throw error;
    const found = withLines([strictModeDiagnostic(error, model)], (file) => texts.get(file));
    return { files: [], diagnostics: [...located, ...found] };
  }
}
