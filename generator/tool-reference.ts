import { toolReferenceKeyword } from "../json-schema/keywords.js";
import { walkSchema } from "../json-schema/walk.js";
import type { ToolSource } from "./rules/rule.js";
import type { SourceFile } from "../json-schema/source.js";

/**
 * Give every schema marked `x-skillpilot-tool-reference` the enum of the contract's tool names
 * (current and superseded, sorted): the one place the set is derived. Runs on the parsed sources
 * after the gate rules passed, before anything is compiled or dereferenced, so every emitted
 * schema, type and validator carries the same set. Mutates the parsed documents in place.
 */
export function fillToolReferences(
  schemaDocs: readonly SourceFile[],
  tools: readonly ToolSource[],
): void {
  const names = tools.map((t) => String(t.doc.name)).sort();
  const fill = (schema: unknown) =>
    walkSchema(schema, "", (node) => {
      if (node[toolReferenceKeyword] === true) node.enum = [...names];
    });
  for (const doc of schemaDocs) fill(doc.json);
  for (const tool of tools) {
    fill(tool.doc.input);
    fill(tool.doc.output);
  }
}
