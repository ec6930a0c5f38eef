import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { createAjv } from "../json-schema/ajv.js";
import { REF_CYCLE } from "../json-schema/deref.js";
import { assembleModel, dereferenceContract } from "./build-phases/assemble.js";
import { documentProblems } from "./build-phases/document-checks.js";
import { compileProblems, metaSchemaProblems } from "./build-phases/schema-checks.js";
import { type ContractSources, type SortedSources, sortSources } from "./build-phases/sources.js";
import type { ContractModel } from "./model.js";
import { generatorRules } from "./rules/index.js";
import { runRules } from "./rules/rule.js";
import { fillToolReferences } from "./tool-reference.js";

/** What a generator run builds: the model, or the diagnostics that stopped it. */
export interface BuildResult {
  model?: ContractModel;
  diagnostics: Diagnostic[];
}

/**
 * sources → gate rules → meta-schemas → compiled schemas → documents → dereferenced tools and
 * envelopes → ContractModel. Each checking phase returns its diagnostics, and the first phase with
 * any ends the run (the later ones would only repeat the same problem). Pure: the caller reads the
 * files.
 */
export function buildModel(input: ContractSources): BuildResult {
  const { sorted: sources, diagnostics } = sortSources(input);
  if (!sources) return { diagnostics };
  const ajv = createAjv({ allErrors: true });
  const phases: (() => Diagnostic[])[] = [
    () => gateRuleProblems(sources),
    () => metaSchemaProblems(ajv, sources.schemaDocs),
    () => compileProblems(ajv, sources.schemaDocs),
    () => documentProblems(ajv, sources),
  ];
  for (const phase of phases) {
    const problems = phase();
    if (problems.length > 0) return { diagnostics: problems };
  }
  const resolved = dereferenceContract(sources);
  if (resolved.diagnostics.some((d) => d.ruleId === REF_CYCLE.id))
    return { diagnostics: resolved.diagnostics };
  return { model: assembleModel(input, sources, resolved), diagnostics: resolved.diagnostics };
}

/** The generator's gate rules; a contract that passes them gets its tool references filled in. */
function gateRuleProblems(sources: SortedSources): Diagnostic[] {
  const problems = runRules(generatorRules, {
    registry: sources.registry,
    tools: sources.tools,
    schemaDocs: sources.schemaDocs,
    line: { file: sources.line.file, json: sources.line.json },
  });
  if (problems.length === 0) fillToolReferences(sources.schemaDocs, sources.tools);
  return problems;
}
