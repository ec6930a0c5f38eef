import type { ContractModel, ToolModel } from "../model.js";
import { generatedHeader, literal, type EmittedFile } from "./emitted-file.js";
import { sortKeys } from "../../contract-model/canonical.js";

/** A tool's security schemes (its OAuth scopes, from the tool schema). */
const securitySchemes = (tool: ToolModel) => [{ type: "oauth2", scopes: tool.scopes }];

/**
 * The `_meta` of a descriptor: MCP Apps keys plus their OpenAI Apps SDK equivalents, and the
 * security schemes mirrored where the Apps SDK convention puts them (clients that drop the
 * top-level field still see them).
 */
export function descriptorMeta(tool: ToolModel): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  const meta: Record<string, unknown> = { securitySchemes: securitySchemes(tool) };
  if (tool.ui) {
    ui.resourceUri = tool.ui.resourceUri;
    meta["openai/outputTemplate"] = tool.ui.resourceUri;
  }
  if (tool.visibility) {
    ui.visibility = tool.visibility;
    if (!tool.visibility.includes("model")) meta["openai/visibility"] = "private";
    if (tool.visibility.includes("app")) meta["openai/widgetAccessible"] = true;
  }
  return Object.keys(ui).length === 0 ? meta : { ...meta, ui };
}

/** One MCP `tools/list` entry for a tool: schemas self-contained, all four annotations explicit. */
export function toolDescriptor(tool: ToolModel): Record<string, unknown> {
  const meta = descriptorMeta(tool);
  return sortKeys({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.input.schema,
    outputSchema: tool.output.schema,
    annotations: { title: tool.title, ...tool.annotations },
    securitySchemes: securitySchemes(tool),
    _meta: meta,
  }) as Record<string, unknown>;
}

/** MCP `tools/list` descriptors, one entry per tool, sorted by name. */
export function emitDescriptors(model: ContractModel): EmittedFile {
  const tools = model.tools.map(toolDescriptor);
  const contents = `${generatedHeader(model)}
/* MCP tools/list descriptors of contract major ${model.plugin.contractMajor}, sorted by name. */

/** A JSON Schema object as MCP advertises it. */
export type JsonSchemaObject = { [key: string]: unknown };

/** One MCP tool descriptor in tools/list shape. */
export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject & { type: "object" };
  outputSchema: JsonSchemaObject;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  securitySchemes: { type: "oauth2"; scopes: string[] }[];
  _meta?: { [key: string]: unknown };
}

export const toolDescriptors: readonly ToolDescriptor[] = ${literal(tools)};

/** The OAuth scopes each tool requires (from its schema's securitySchemes), by tool name. */
export const toolScopes: { readonly [name: string]: readonly string[] } = ${literal(
    Object.fromEntries(model.tools.map((t) => [t.name, [...t.scopes].sort()])),
  )};

/** Every scope of the contract, sorted: the resource's \`scopes_supported\`. */
export const contractScopes: readonly string[] = ${literal(
    [...new Set(model.tools.flatMap((t) => t.scopes))].sort(),
  )};
`;
  return { path: "generated/tools.gen.ts", contents };
}
