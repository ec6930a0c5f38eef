/**
 * The ContractModel: the generator's sorted, serialisable intermediate representation. Emitters
 * read only this; nothing here depends on file order, the clock or the environment.
 */

/** The four MCP tool annotations, always explicit. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Why each hint a directory review asks about is true or false, in one sentence each. */
export interface HintJustifications {
  readOnlyHint: string;
  destructiveHint: string;
  openWorldHint: string;
}

export type ToolKind = "read" | "write" | "app-only";

/** One tool of the contract, with self-contained (dereferenced) input and output schemas. */
export interface ToolModel {
  name: string;
  title: string;
  description: string;
  kind: ToolKind;
  annotations: ToolAnnotations;
  /** One reviewer-facing sentence per hint the directories ask to justify. */
  hintJustifications?: HintJustifications;
  scopes: string[];
  visibility?: ("model" | "app")[];
  /** The current tool that replaced this one incompatibly (served through an adapter). */
  supersededBy?: string;
  ui?: { resource: string; resourceUri: string };
  /** Repository-relative source file and the tool's `$id`. */
  file: string;
  id: string;
  /** The input/output schemas as written (with `$ref`s) and inlined. */
  input: { raw: Record<string, unknown>; schema: Record<string, unknown> };
  output: { raw: Record<string, unknown>; schema: Record<string, unknown> };
}

/** A JSON Schema document of the repository (envelopes, common definitions, policy schemas). */
export interface SchemaDocModel {
  id: string;
  file: string;
  title?: string;
  json: Record<string, unknown>;
}

/** An envelope schema (full context, receipt, …), inlined for the snapshot. */
export interface EnvelopeModel {
  name: string;
  id: string;
  file: string;
  schema: Record<string, unknown>;
}

/** One provider lane (schemas/lanes.json): a host family's endpoint on the same server build. */
export interface LaneModel {
  id: string;
  description: string;
  mcpPath: string;
  authentication: "tool-call-challenge" | "at-connect";
  widgetMeta: "mcp-apps-and-openai" | "mcp-apps";
  /** The https origins the lane may be published on (its own public URL's allowlist). */
  publicOrigins?: string[];
}

/** One skill of the shipped skills tree (a folder of `skills/`): its files' content hashes. */
export interface SkillModel {
  name: string;
  /** Path inside the skill's folder (`SKILL.md`, `references/flow.md`) → `sha256:<hex>`. */
  files: Record<string, string>;
}

export interface ContractModel {
  /** plugin.json without its `$schema`/`$id`. */
  plugin: Record<string, unknown> & {
    packageName: string;
    displayName: string;
    packageVersion: string;
    contractMajor: number;
  };
  /** release/line.json (valid against contract-line/v1). */
  line: Record<string, unknown> & { policyRevision: number; activeUi?: Record<string, string> };
  lineFile: string;
  tools: ToolModel[];
  envelopes: EnvelopeModel[];
  /** The provider lanes the server serves (schemas/lanes.json; the openai lane alone without it). */
  lanes: LaneModel[];
  schemaDocs: SchemaDocModel[];
  /** The skills tree, sorted by name; absent when the sources did not include it. */
  skills?: SkillModel[];
  /** Every input file and its sha256, sorted by path. */
  sources: { file: string; sha256: string }[];
  /** Who generated: the toolchain version and the sha256 over `sources` (named in every header). */
  generator: { version: string; sourcesSha256: string };
}
