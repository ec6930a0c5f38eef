import standaloneCode from "ajv/dist/standalone/index.js";
import { createAjv } from "../../json-schema/ajv.js";
import type { ContractModel } from "../model.js";
import { generatedHeader, pascalCase, type EmittedFile } from "./emitted-file.js";
import { ioTypeNames } from "./handlers.emitter.js";

/** Export name → (schema ref, TypeScript type name) of every precompiled validator. */
export function validatorExports(
  model: ContractModel,
): { name: string; ref: string; type: string }[] {
  const out: { name: string; ref: string; type: string }[] = [];
  for (const doc of model.schemaDocs) {
    if (!doc.title || !("type" in doc.json || "oneOf" in doc.json)) continue;
    out.push({ name: `validate${pascalCase(doc.title)}`, ref: doc.id, type: doc.title });
  }
  for (const tool of model.tools) {
    const names = ioTypeNames(tool.name);
    out.push({ name: `validate${names.input}`, ref: `${tool.id}#/$defs/input`, type: names.input });
    out.push({
      name: `validate${names.output}`,
      ref: `${tool.id}#/$defs/output`,
      type: names.output,
    });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Ajv standalone validators (ESM) for every tool input/output and every envelope, plus a `.d.ts`
 * typing each as a type guard. Ajv's standalone output still calls `require` for formats, so the
 * module gets a `createRequire` prologue and imports as real ESM.
 */
export function emitValidators(model: ContractModel): EmittedFile[] {
  const ajv = createAjv({ code: { source: true, esm: true } });
  for (const doc of model.schemaDocs) ajv.addSchema(doc.json);
  // A tool file is not a schema; its input/output become $defs of a synthetic document under the
  // tool's $id.
  for (const tool of model.tools)
    ajv.addSchema({ $id: tool.id, $defs: { input: tool.input.raw, output: tool.output.raw } });
  const exports = validatorExports(model);
  const refs: Record<string, string> = {};
  for (const e of exports) refs[e.name] = e.ref;
  const code = standaloneCode.default(ajv, refs);
  const js = `${generatedHeader(model)}
/* eslint-disable */
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
${code}
`;
  const dts = `${generatedHeader(model)}
import type { ErrorObject } from "ajv";
import type * as T from "./types.gen.js";

/** A precompiled validator: a type guard that leaves its errors on \`.errors\`. */
export interface Validator<Data> {
  (data: unknown): data is Data;
  errors?: ErrorObject[] | null;
}

${exports.map((e) => `export declare const ${e.name}: Validator<T.${e.type}>;`).join("\n")}
`;
  return [
    { path: "generated/validators.gen.js", contents: js },
    { path: "generated/validators.gen.d.ts", contents: dts },
  ];
}
