import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { ajvErrorMessage, ajvErrorPointer } from "../../json-schema/ajv.js";
import type { JsonObject } from "../../json-schema/walk.js";
import type { ToolSource } from "../rules/rule.js";
import { LANES_INVALID, laneProblems, lanesOf } from "./lanes.js";
import type { Ajv } from "./schema-checks.js";
import {
  CONTRACT_LINE_ID,
  LANES_SCHEMA_ID,
  PLUGIN_SCHEMA_ID,
  type SortedSources,
  TOOL_DEFINITION_ID,
} from "./sources.js";

const TOOL_DEFINITION_INVALID = defineRule({
  id: "TOOL_DEFINITION_INVALID",
  family: "generator",
  severity: "error",
  summary: "A tool file does not satisfy tool-definition.schema.json.",
  message: "{error}",
});
const PLUGIN_INVALID = defineRule({
  id: "PLUGIN_INVALID",
  family: "generator",
  severity: "error",
  summary: "plugin.json does not satisfy plugin.schema.json (L1).",
  message: "{error}",
});
/** Also reported by `skillpilot verify`, which reads release/line.json on its own. */
export const LINE_INVALID = defineRule({
  id: "LINE_INVALID",
  family: "generator",
  severity: "error",
  summary: "release/line.json does not satisfy contract-line/v1 (L11).",
  message: {
    schema: "{error}",
    missing: "{file} is missing",
    notJson: "{file} is not JSON: {error}",
    line: "contract-line/v1: {path} {error}",
  },
});
const TOOL_DUPLICATE = defineRule({
  id: "TOOL_DUPLICATE",
  family: "generator",
  severity: "error",
  summary: "Two tool files declare the same tool name.",
  message: "tool {tool} is defined in {first} and {second}",
});

/**
 * The contract's own documents against their compiled schemas — every tool file, plugin.json,
 * lanes.json (then whether its lanes can be served together), release/line.json — and no tool name
 * twice.
 */
export function documentProblems(ajv: Ajv, sources: SortedSources): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (
    id: string,
    source: { file: string; json: unknown },
    report: (error: string, at: Location) => Diagnostic,
  ) => {
    const validate = ajv.getSchema(id)!;
    if (!validate(source.json))
      for (const e of validate.errors ?? [])
        out.push(report(ajvErrorMessage(e), { file: source.file, pointer: ajvErrorPointer(e) }));
  };
  for (const tool of sources.tools)
    check(TOOL_DEFINITION_ID, { file: tool.file, json: tool.doc }, (error, at) =>
      diagnose(TOOL_DEFINITION_INVALID, { error }, at),
    );
  check(PLUGIN_SCHEMA_ID, sources.plugin, (error, at) => diagnose(PLUGIN_INVALID, { error }, at));
  const { lanes } = sources;
  if (lanes && ajv.getSchema(LANES_SCHEMA_ID))
    check(LANES_SCHEMA_ID, lanes, (error, at) =>
      diagnose(LANES_INVALID, { variant: "schema", error }, at),
    );
  if (out.length === 0 && lanes)
    out.push(
      ...laneProblems(
        lanesOf(sources),
        String((sources.plugin.json as JsonObject).internalAdapterPath),
        lanes.file,
      ),
    );
  check(CONTRACT_LINE_ID, sources.line, (error, at) =>
    diagnose(LINE_INVALID, { variant: "schema", error }, at),
  );
  const byName = new Map<string, ToolSource>();
  for (const tool of sources.tools) {
    const other = byName.get(String(tool.doc.name));
    if (other)
      out.push(
        diagnose(
          TOOL_DUPLICATE,
          { tool: String(tool.doc.name), first: other.file, second: tool.file },
          { file: tool.file, pointer: "/name" },
        ),
      );
    byName.set(String(tool.doc.name), tool);
  }
  return out;
}
