import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { SchemaRegistry } from "../../json-schema/registry.js";
import { parseSources, type SourceFile } from "../../json-schema/source.js";
import { isObject, type JsonObject } from "../../json-schema/walk.js";
import type { ToolSource } from "../rules/rule.js";

export const TOOL_DEFINITION_ID = "https://skillpilot.com/schemas/openai/coach/v1/tool-definition";
export const PLUGIN_SCHEMA_ID = "https://skillpilot.com/schemas/openai/coach/v1/plugin";
export const CONTRACT_LINE_ID = "https://skillpilot.com/schemas/openai/contract-line/v1";
export const LANES_SCHEMA_ID = "https://skillpilot.com/schemas/coach/v1/lanes";

const CONTRACT_INCOMPLETE = defineRule({
  id: "CONTRACT_INCOMPLETE",
  family: "generator",
  severity: "error",
  summary:
    "A required contract file (plugin.json, tool-definition schema, " +
    "contract-line schema, release/line.json) is missing.",
  message: "missing {what}",
});

/** Input of a generator run: raw files, and which of them is the contract-line document. */
export interface ContractSources {
  files: readonly { file: string; text: string }[];
  lineFile: string;
  /** The toolchain version named in generated headers (the loader fills it in). */
  generatorVersion?: string;
  /**
   * The skills tree's regular files, paths relative to the skills folder (`<skill>/SKILL.md`), with
   * their sha256; absent when the caller does not read it.
   */
  skills?: readonly { path: string; sha256: string }[];
}

/** The parsed sources, each where it belongs: the documents every later phase reads. */
export interface SortedSources {
  /** Every parsed file, in input order (their hashes go into the model). */
  all: readonly SourceFile[];
  registry: SchemaRegistry;
  line: SourceFile;
  plugin: SourceFile;
  lanes?: SourceFile;
  tools: ToolSource[];
  /** Every JSON Schema document that is not a tool file, plugin.json or lanes.json. */
  schemaDocs: SourceFile[];
}

/**
 * The first phase: parse every file, register the schema `$id`s, sort the documents by their
 * `$schema`, and require plugin.json, the tool-definition and contract-line schemas and the line.
 */
export function sortSources(input: ContractSources): {
  sorted?: SortedSources;
  diagnostics: Diagnostic[];
} {
  const { sources, diagnostics } = parseSources(input.files);
  const line = sources.find((s) => s.file === input.lineFile);
  const rest = sources.filter((s) => s !== line);
  const { registry, diagnostics: idDiagnostics } = SchemaRegistry.build(rest);
  diagnostics.push(...idDiagnostics);

  const schemaOf = (s: SourceFile) => (isObject(s.json) ? s.json.$schema : undefined);
  const tools: ToolSource[] = rest
    .filter(
      (s) =>
        schemaOf(s) === TOOL_DEFINITION_ID && isObject(s.json) && typeof s.json.$id === "string",
    )
    .map((s) => ({
      file: s.file,
      id: (s.json as JsonObject).$id as string,
      doc: s.json as JsonObject,
    }));
  const plugin = rest.find((s) => schemaOf(s) === PLUGIN_SCHEMA_ID);
  const lanes = rest.find((s) => schemaOf(s) === LANES_SCHEMA_ID);
  const schemaDocs = rest.filter(
    (s) =>
      schemaOf(s) !== TOOL_DEFINITION_ID &&
      s !== plugin &&
      s !== lanes &&
      isObject(s.json) &&
      typeof s.json.$id === "string",
  );

  const missing = [
    [plugin, `plugin.json (with $schema ${PLUGIN_SCHEMA_ID})`],
    [registry.get(TOOL_DEFINITION_ID), "tool-definition.schema.json"],
    [registry.get(CONTRACT_LINE_ID), "contract-line.v1.schema.json"],
    [line, input.lineFile],
  ].filter(([found]) => !found);
  for (const [, what] of missing)
    diagnostics.push(
      diagnose(CONTRACT_INCOMPLETE, { what: String(what) }, { file: input.lineFile }),
    );
  if (diagnostics.length > 0 || !plugin || !line) return { diagnostics };
  return {
    sorted: {
      all: sources,
      registry,
      line,
      plugin,
      ...(lanes && { lanes }),
      tools,
      schemaDocs,
    },
    diagnostics,
  };
}
