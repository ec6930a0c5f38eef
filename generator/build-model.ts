import { canonicalJson, sha256Hex } from "../contract-model/canonical.js";
import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import { ajvErrorMessage, ajvErrorPointer, createAjv } from "../json-schema/ajv.js";
import { REF_CYCLE, dereference } from "../json-schema/deref.js";
import type {
  ContractModel,
  EnvelopeModel,
  LaneModel,
  SchemaDocModel,
  SkillModel,
  ToolModel,
} from "./model.js";
import { SchemaRegistry } from "../json-schema/registry.js";
import { generatorRules } from "./rules/index.js";
import { fillToolReferences } from "./tool-reference.js";
import { runRules, type RuleContext, type ToolSource } from "./rules/rule.js";
import { parseSources, type SourceFile } from "../json-schema/source.js";
import { isObject, type JsonObject } from "../json-schema/walk.js";

export const TOOL_DEFINITION_ID = "https://skillpilot.com/schemas/openai/coach/v1/tool-definition";
export const PLUGIN_SCHEMA_ID = "https://skillpilot.com/schemas/openai/coach/v1/plugin";
export const CONTRACT_LINE_ID = "https://skillpilot.com/schemas/openai/contract-line/v1";
export const LANES_SCHEMA_ID = "https://skillpilot.com/schemas/coach/v1/lanes";

const LANES_INVALID = defineRule({
  id: "LANES_INVALID",
  family: "generator",
  severity: "error",
  summary:
    "schemas/lanes.json does not describe the provider lanes one server can serve: it fails " +
    "lanes.schema.json, names a lane or path twice, lacks the openai lane on /mcp, or takes an " +
    "internal adapter path.",
  message: {
    schema: "{error}",
    duplicate: "lane {what} {value} is declared twice",
    openai: "the openai lane must be declared with mcpPath /mcp (the plugin's public MCP URL)",
    internal: "lane {lane} takes {path}, the internal adapter path of the contract",
  },
});

/** The lanes of a contract without `schemas/lanes.json`: the OpenAI app alone. */
const defaultLanes: LaneModel[] = [
  {
    id: "openai",
    description: "The OpenAI MCP App (ChatGPT): the plugin's public MCP URL.",
    mcpPath: "/mcp",
    authentication: "tool-call-challenge",
    widgetMeta: "mcp-apps-and-openai",
  },
];

const TOOL_DEFINITION_INVALID = defineRule({
  id: "TOOL_DEFINITION_INVALID",
  family: "generator",
  severity: "error",
  summary: "A tool file does not satisfy tool-definition.schema.json.",
  message: "{error}",
});
const SCHEMA_INVALID = defineRule({
  id: "SCHEMA_INVALID",
  family: "generator",
  severity: "error",
  summary: "A schema document is not a valid JSON Schema 2020-12 document.",
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

/**
 * load → validate (gate rules + meta-schemas) → ContractModel. Pure: the caller reads the files.
 */
export function buildModel(input: ContractSources): {
  model?: ContractModel;
  diagnostics: Diagnostic[];
} {
  const { sources, diagnostics } = parseSources(input.files);
  const line = sources.find((s) => s.file === input.lineFile);
  const rest = sources.filter((s) => s !== line);
  const { registry, diagnostics: idDiagnostics } = SchemaRegistry.build(rest);
  diagnostics.push(...idDiagnostics);

  const schemaOf = (s: SourceFile) => (isObject(s.json) ? s.json.$schema : undefined);
  const toolSources: ToolSource[] = rest
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
  const lanesDoc = rest.find((s) => schemaOf(s) === LANES_SCHEMA_ID);
  const schemaDocs = rest.filter(
    (s) =>
      schemaOf(s) !== TOOL_DEFINITION_ID &&
      s !== plugin &&
      s !== lanesDoc &&
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

  const ctx: RuleContext = {
    registry,
    tools: toolSources,
    schemaDocs,
    line: { file: line.file, json: line.json },
  };
  const ruleDiagnostics = runRules(generatorRules, ctx);
  diagnostics.push(...ruleDiagnostics);
  if (ruleDiagnostics.length > 0) return { diagnostics };
  fillToolReferences(schemaDocs, toolSources);

  // Meta-schema validation: every schema document, every tool file, plugin.json and line.json.
  const ajv = createAjv({ allErrors: true });
  for (const doc of schemaDocs) {
    if (!ajv.validateSchema(doc.json as object))
      for (const e of ajv.errors ?? [])
        diagnostics.push(
          diagnose(
            SCHEMA_INVALID,
            { error: ajvErrorMessage(e) },
            {
              file: doc.file,
              pointer: ajvErrorPointer(e),
            },
          ),
        );
  }
  if (diagnostics.length > 0) return { diagnostics };
  for (const doc of schemaDocs) ajv.addSchema(doc.json as object);
  for (const doc of schemaDocs) {
    try {
      ajv.getSchema(String((doc.json as JsonObject).$id));
    } catch (error) {
      // Strict-mode compile failures (e.g. `required` naming an undeclared property) are schema
      // problems, not crashes.
      diagnostics.push(
        diagnose(
          SCHEMA_INVALID,
          { error: (error as Error).message },
          { file: doc.file, pointer: "" },
        ),
      );
    }
  }
  if (diagnostics.length > 0) return { diagnostics };
  const check = (
    id: string,
    source: { file: string; json: unknown },
    report: (error: string, at: Location) => Diagnostic,
  ) => {
    const validate = ajv.getSchema(id)!;
    if (!validate(source.json))
      for (const e of validate.errors ?? [])
        diagnostics.push(
          report(ajvErrorMessage(e), { file: source.file, pointer: ajvErrorPointer(e) }),
        );
  };
  for (const tool of toolSources)
    check(TOOL_DEFINITION_ID, { file: tool.file, json: tool.doc }, (error, at) =>
      diagnose(TOOL_DEFINITION_INVALID, { error }, at),
    );
  check(PLUGIN_SCHEMA_ID, plugin, (error, at) => diagnose(PLUGIN_INVALID, { error }, at));
  if (lanesDoc && ajv.getSchema(LANES_SCHEMA_ID))
    check(LANES_SCHEMA_ID, lanesDoc, (error, at) =>
      diagnose(LANES_INVALID, { variant: "schema", error }, at),
    );
  const lanes = lanesDoc ? (lanesDoc.json as { lanes: LaneModel[] }).lanes : defaultLanes;
  if (diagnostics.length === 0 && lanesDoc)
    diagnostics.push(
      ...laneProblems(
        lanes,
        String((plugin.json as JsonObject).internalAdapterPath),
        lanesDoc.file,
      ),
    );
  check(CONTRACT_LINE_ID, line, (error, at) =>
    diagnose(LINE_INVALID, { variant: "schema", error }, at),
  );
  const byName = new Map<string, ToolSource>();
  for (const tool of toolSources) {
    const other = byName.get(String(tool.doc.name));
    if (other)
      diagnostics.push(
        diagnose(
          TOOL_DUPLICATE,
          { tool: String(tool.doc.name), first: other.file, second: tool.file },
          { file: tool.file, pointer: "/name" },
        ),
      );
    byName.set(String(tool.doc.name), tool);
  }
  if (diagnostics.length > 0) return { diagnostics };

  const lineJson = line.json as ContractModel["line"];
  const deref = (schema: unknown, base: string, file: string, pointer: string) =>
    dereference(schema, base, { file, pointer }, registry, diagnostics) as Record<string, unknown>;
  const tools: ToolModel[] = toolSources
    .map((t) => toolModel(t, lineJson, deref))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const envelopes: EnvelopeModel[] = schemaDocs
    .filter((d) => d.file.includes("/envelopes/") && isEnvelope(d.json as JsonObject))
    .map((d) => ({
      name: String((d.json as JsonObject).title),
      id: String((d.json as JsonObject).$id),
      file: d.file,
      schema: deref(d.json, String((d.json as JsonObject).$id), d.file, ""),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (diagnostics.some((d) => d.ruleId === REF_CYCLE.id)) return { diagnostics };

  const docs: SchemaDocModel[] = schemaDocs
    .map((d) => {
      const json = d.json as JsonObject;
      return {
        id: String(json.$id),
        file: d.file,
        json,
        ...(typeof json.title === "string" ? { title: json.title } : {}),
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const { $schema: _s, $id: _i, ...pluginFields } = plugin.json as JsonObject;
  const model: ContractModel = {
    plugin: pluginFields as ContractModel["plugin"],
    line: lineJson,
    lineFile: line.file,
    tools,
    envelopes,
    lanes,
    schemaDocs: docs,
    ...(input.skills && { skills: skillsOf(input.skills) }),
    sources: sources.map((s) => ({ file: s.file, sha256: s.sha256 })),
    generator: {
      version: input.generatorVersion ?? "unknown",
      sourcesSha256: sha256Hex(
        canonicalJson(sources.map((s) => ({ file: s.file, sha256: s.sha256 }))),
      ),
    },
  };
  return { model, diagnostics };
}

/** Files grouped by their top folder (one skill each); files outside a folder are not a skill. */
function skillsOf(files: NonNullable<ContractSources["skills"]>): SkillModel[] {
  const skills = new Map<string, Record<string, string>>();
  for (const f of [...files].sort((a, b) =>
    Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)),
  )) {
    const cut = f.path.indexOf("/");
    if (cut <= 0) continue;
    const name = f.path.slice(0, cut);
    if (!skills.has(name)) skills.set(name, {});
    skills.get(name)![f.path.slice(cut + 1)] = `sha256:${f.sha256}`;
  }
  return [...skills].map(([name, skillFiles]) => ({ name, files: skillFiles }));
}

/** Lanes that cannot be served side by side: duplicates, no openai lane on /mcp, internal paths. */
function laneProblems(lanes: readonly LaneModel[], internalPath: string, file: string) {
  const out: Diagnostic[] = [];
  for (const what of ["id", "mcpPath"] as const) {
    const seen = new Set<string>();
    lanes.forEach((lane, i) => {
      if (seen.has(lane[what]))
        out.push(
          diagnose(
            LANES_INVALID,
            { variant: "duplicate", what, value: lane[what] },
            { file, pointer: `/lanes/${i}/${what}` },
          ),
        );
      seen.add(lane[what]);
    });
  }
  if (!lanes.some((l) => l.id === "openai" && l.mcpPath === "/mcp"))
    out.push(diagnose(LANES_INVALID, { variant: "openai" }, { file, pointer: "/lanes" }));
  lanes.forEach((lane, i) => {
    if (lane.mcpPath === internalPath || lane.mcpPath.startsWith("/internal/"))
      out.push(
        diagnose(
          LANES_INVALID,
          { variant: "internal", lane: lane.id, path: lane.mcpPath },
          { file, pointer: `/lanes/${i}/mcpPath` },
        ),
      );
  });
  return out;
}

function isEnvelope(json: JsonObject): boolean {
  return typeof json.title === "string" && ("type" in json || "oneOf" in json);
}

function toolModel(
  t: ToolSource,
  line: ContractModel["line"],
  deref: (s: unknown, base: string, file: string, pointer: string) => Record<string, unknown>,
): ToolModel {
  const d = t.doc as JsonObject &
    Omit<ToolModel, "file" | "id" | "input" | "output" | "ui"> & { ui?: { resource: string } };
  return {
    name: d.name,
    title: d.title,
    description: d.description,
    kind: d.kind,
    annotations: d.annotations,
    ...(d.hintJustifications ? { hintJustifications: d.hintJustifications } : {}),
    scopes: [...d.scopes].sort(),
    ...(d.visibility ? { visibility: d.visibility } : {}),
    ...(typeof d.supersededBy === "string" ? { supersededBy: d.supersededBy } : {}),
    ...(d.ui
      ? { ui: { resource: d.ui.resource, resourceUri: String(line.activeUi?.[d.ui.resource]) } }
      : {}),
    file: t.file,
    id: t.id,
    input: { raw: d.input as JsonObject, schema: deref(d.input, t.id, t.file, "/input") },
    output: { raw: d.output as JsonObject, schema: deref(d.output, t.id, t.file, "/output") },
  };
}
