import type { ContractModel } from "../model.js";
import { pascalCase, type EmittedFile } from "./emitted-file.js";

const kebab = (snake: string) => snake.replace(/_/g, "-");
const camel = (snake: string) => pascalCase(snake).replace(/^./, (c) => c.toLowerCase());
const importLine = (name: string, from: string) => `import { ${name} } from "${from}";`;

/**
 * Starter handler files for a backend: one `<tool>.handler.ts` per tool that implements the
 * generated interface and throws a clear not-implemented error, plus an `index.ts` assembling them.
 * The caller writes only files that do not exist yet. `generatedImport` is the import path of
 * `generated/` from `dir`.
 */
export function emitHandlerScaffold(
  model: ContractModel,
  dir: string,
  generatedImport: string,
): EmittedFile[] {
  const files: EmittedFile[] = model.tools.map((tool) => ({
    path: `${dir}/${kebab(tool.name)}.handler.ts`,
    contents: `import type { ToolHandler } from "${generatedImport}/handlers.gen.js";
import { NotImplementedError } from "./not-implemented.js";

/** ${tool.title} (${tool.kind}): implement the domain rule here. Input arrives validated. */
export const ${camel(tool.name)}: ToolHandler<"${tool.name}", unknown> = async (_input, _ctx) => {
  throw new NotImplementedError("${tool.name}");
};
`,
  }));
  files.push({
    path: `${dir}/not-implemented.ts`,
    contents: `/** Thrown by scaffolded handlers until they are implemented. */
export class NotImplementedError extends Error {
  override name = "NotImplementedError";
  constructor(readonly tool: string) {
    super(\`handler for \${tool} is not implemented yet: edit its *.handler.ts file\`);
  }
}
`,
  });
  files.push({
    path: `${dir}/index.ts`,
    contents: `import type { CoachHandlers } from "${generatedImport}/handlers.gen.js";
${model.tools.map((t) => importLine(camel(t.name), `./${kebab(t.name)}.handler.js`)).join("\n")}

/** Every tool's handler, keyed by tool name. */
export const handlers: CoachHandlers<unknown> = {
${model.tools.map((t) => `  ${t.name}: ${camel(t.name)},`).join("\n")}
};
`,
  });
  return files;
}
