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
  const current = model.tools.filter((t) => !t.supersededBy);
  const superseded = model.tools.filter((t) => t.supersededBy);
  const methods = current
    .map((t) => {
      const { input, output } = ioTypeNames(t.name);
      return (
        `${jsdoc(`${t.title} (${t.kind}). ${t.description}`, "  ")}  ` +
        `${t.name}(input: ${input}, ctx: Ctx): Promise<${output}>;`
      );
    })
    .join("\n");
  const kinds = model.tools.map((t) => `  ${t.name}: ${JSON.stringify(t.kind)},`).join("\n");
  const replacements = superseded
    .map((t) => `  ${t.name}: ${JSON.stringify(t.supersededBy)},`)
    .join("\n");
  const adapters = superseded
    .map((t) => {
      const old = ioTypeNames(t.name);
      const next = ioTypeNames(String(t.supersededBy));
      return (
        `${jsdoc(`${t.name} is served through ${t.supersededBy}: map its calls and results.`, "  ")}` +
        `  ${t.name}: {\n` +
        `    /** An old call (already validated) as a call of ${t.supersededBy}. */\n` +
        `    input(input: ${old.input}, ctx: Ctx): ${next.input} | Promise<${next.input}>;\n` +
        `    /** The result of ${t.supersededBy} as the result an old client expects. */\n` +
        `    output(output: ${next.output}, ctx: Ctx): ${old.output} | Promise<${old.output}>;\n` +
        "  };"
      );
    })
    .join("\n");
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

/** Every superseded tool and the current tool that replaced it (schemas' \`supersededBy\`). */
export const supersededTools: { readonly [name: string]: ToolName } = {${
    replacements ? `\n${replacements}\n` : ""
  }};

/**
 * What a backend implements: one method per current tool. \`Ctx\` is whatever the runtime passes
 * along (session, transaction, clock); inputs arrive already validated.
 */
export interface CoachHandlers<Ctx> {
${methods}
}

/** One tool's handler. */
export type ToolHandler<N extends keyof CoachHandlers<unknown>, Ctx> = CoachHandlers<Ctx>[N];

/**
 * What a backend writes for each superseded tool: how an old call becomes a call of its
 * replacement and how the replacement's result becomes the old result. The runtime validates the
 * old call with its own schema, the mapped call with the replacement's, and the mapped result with
 * the old output schema.
 */
export interface CoachAdapters<Ctx> {${adapters ? `\n${adapters}\n` : ""}}
`;
  return { path: "generated/handlers.gen.ts", contents };
}
