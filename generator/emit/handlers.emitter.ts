import type { ContractModel } from "../model.js";
import { generatedHeader, pascalCase, type EmittedFile } from "./emitted-file.js";

/** Type names the types emitter gives a tool's input and output. */
export const ioTypeNames = (toolName: string) => ({
  input: `${pascalCase(toolName)}Input`,
  output: `${pascalCase(toolName)}Output`,
});

const jsdoc = (text: string, indent: string) =>
  `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n`;

/** Typed handler interfaces: one method per tool, plus name/kind maps the runtime dispatches on. */
export function emitHandlers(model: ContractModel): EmittedFile {
  const names = model.tools.map((t) => t.name);
  const imports = model.tools.flatMap((t) => Object.values(ioTypeNames(t.name)));
  const io = model.tools
    .map(
      (t) =>
        `  ${t.name}: { input: ${ioTypeNames(t.name).input}; output: ` +
        `${ioTypeNames(t.name).output}; kind: ${JSON.stringify(t.kind)} };`,
    )
    .join("\n");
  const methods = model.tools
    .map((t) => {
      const { input, output } = ioTypeNames(t.name);
      return (
        `${jsdoc(`${t.title} (${t.kind}). ${t.description}`, "  ")}  ` +
        `${t.name}(input: ${input}, ctx: Ctx): Promise<${output}>;`
      );
    })
    .join("\n");
  const kinds = model.tools.map((t) => `  ${t.name}: ${JSON.stringify(t.kind)},`).join("\n");
  const contents = `${generatedHeader(model)}
import type {
${imports.map((n) => `  ${n},`).join("\n")}
} from "./types.gen.js";

/** Every tool name of the contract, sorted. */
export const toolNames = [
${names.map((n) => `  ${JSON.stringify(n)},`).join("\n")}
] as const;

export type ToolName = (typeof toolNames)[number];

/** Input, output and kind of each tool. */
export interface ToolIO {
${io}
}

export type ToolInput<N extends ToolName> = ToolIO[N]["input"];
export type ToolOutput<N extends ToolName> = ToolIO[N]["output"];
export type ToolKind = ToolIO[ToolName]["kind"];

/** The kind of each tool: read, write (model-visible mutation) or app-only. */
export const toolKinds: { readonly [N in ToolName]: ToolIO[N]["kind"] } = {
${kinds}
};

/**
 * What a backend implements: one method per tool. \`Ctx\` is whatever the runtime passes along
 * (session, transaction, clock); inputs arrive already validated.
 */
export interface CoachHandlers<Ctx> {
${methods}
}

/** One tool's handler. */
export type ToolHandler<N extends ToolName, Ctx> = CoachHandlers<Ctx>[N];
`;
  return { path: "generated/handlers.gen.ts", contents };
}
