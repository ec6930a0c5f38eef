import { canonicalJson, sha256Hex } from "../../contract-model/canonical.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { dereference } from "../../json-schema/deref.js";
import type { JsonObject } from "../../json-schema/walk.js";
import type {
  ContractModel,
  EnvelopeModel,
  SchemaDocModel,
  SkillModel,
  ToolModel,
} from "../model.js";
import type { ToolSource } from "../rules/rule.js";
import { lanesOf } from "./lanes.js";
import type { ContractSources, SortedSources } from "./sources.js";

type Deref = (schema: unknown, base: string, file: string, pointer: string) => JsonObject;

/** The contract's tools and envelopes with every `$ref` inlined, each list sorted by name. */
export interface ResolvedContract {
  tools: ToolModel[];
  envelopes: EnvelopeModel[];
  /** What dereferencing found (a `$ref` cycle ends the run). */
  diagnostics: Diagnostic[];
}

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** Dereference every tool's input and output and every envelope schema. */
export function dereferenceContract(sources: SortedSources): ResolvedContract {
  const diagnostics: Diagnostic[] = [];
  const line = sources.line.json as ContractModel["line"];
  const deref: Deref = (schema, base, file, pointer) =>
    dereference(schema, base, { file, pointer }, sources.registry, diagnostics) as JsonObject;
  const tools = sources.tools.map((t) => toolModel(t, line, deref)).sort(byKey((t) => t.name));
  const envelopes: EnvelopeModel[] = sources.schemaDocs
    .filter((d) => d.file.includes("/envelopes/") && isEnvelope(d.json as JsonObject))
    .map((d) => ({
      name: String((d.json as JsonObject).title),
      id: String((d.json as JsonObject).$id),
      file: d.file,
      schema: deref(d.json, String((d.json as JsonObject).$id), d.file, ""),
    }))
    .sort(byKey((e) => e.name));
  return { tools, envelopes, diagnostics };
}

/** The last phase: the serialisable model every emitter reads. */
export function assembleModel(
  input: ContractSources,
  sources: SortedSources,
  resolved: ResolvedContract,
): ContractModel {
  const docs: SchemaDocModel[] = sources.schemaDocs
    .map((d) => {
      const json = d.json as JsonObject;
      return {
        id: String(json.$id),
        file: d.file,
        json,
        ...(typeof json.title === "string" ? { title: json.title } : {}),
      };
    })
    .sort(byKey((d) => d.id));
  const { $schema: _s, $id: _i, ...pluginFields } = sources.plugin.json as JsonObject;
  const hashes = sources.all.map((s) => ({ file: s.file, sha256: s.sha256 }));
  return {
    plugin: pluginFields as ContractModel["plugin"],
    line: sources.line.json as ContractModel["line"],
    lineFile: sources.line.file,
    tools: resolved.tools,
    envelopes: resolved.envelopes,
    lanes: lanesOf(sources),
    schemaDocs: docs,
    ...(input.skills && { skills: skillsOf(input.skills) }),
    sources: hashes,
    generator: {
      version: input.generatorVersion ?? "unknown",
      sourcesSha256: sha256Hex(canonicalJson(hashes)),
    },
  };
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

function isEnvelope(json: JsonObject): boolean {
  return typeof json.title === "string" && ("type" in json || "oneOf" in json);
}

function toolModel(t: ToolSource, line: ContractModel["line"], deref: Deref): ToolModel {
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
