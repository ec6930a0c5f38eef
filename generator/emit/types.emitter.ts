import { compile } from "json-schema-to-typescript";
import type { ContractModel } from "../model.js";
import { SchemaRegistry } from "../../json-schema/registry.js";
import { isObject, type JsonObject } from "../../json-schema/walk.js";
import { generatedHeader, type EmittedFile } from "./emitted-file.js";
import { ioTypeNames } from "./handlers.emitter.js";

const droppedKeys = new Set(["$id", "$schema", "$defs"]);

/**
 * Bundle every schema document and tool input/output into one synthetic root whose `$defs` are
 * the named types, with cross-file `$ref`s rewritten to local ones. json-schema-to-typescript then
 * declares each type exactly once (it re-declares shared types when given files one by one).
 */
export function bundleForTypes(model: ContractModel): JsonObject {
  const { registry } = SchemaRegistry.build(
    model.schemaDocs.map((d) => ({ file: d.file, text: "", json: d.json, sha256: "" })),
  );
  const defs: JsonObject = {};
  const nameOf = (docId: string, pointer: string): string | undefined => {
    const doc = registry.get(docId)?.json as JsonObject | undefined;
    if (!doc) return undefined;
    if (pointer === "" && typeof doc.title === "string" && !isDefsOnly(doc)) return doc.title;
    const m = /^\/\$defs\/([^/]+)$/.exec(pointer);
    return m ? m[1] : undefined;
  };
  const rewrite = (node: unknown, base: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, base));
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (droppedKeys.has(k)) continue;
      if (k === "$ref" && typeof v === "string") {
        const r = registry.resolve(v, base);
        // the 2020-12 meta-schema: any JSON Schema object
        if (!r.ok && r.reason === "builtin") continue;
        if (!r.ok) throw new Error(`bug: unresolved $ref ${v} reached the types emitter`);
        const name = nameOf(r.target.docId, r.target.pointer);
        if (name) out.$ref = `#/$defs/${name}`;
        else Object.assign(out, rewrite(r.target.node, r.target.docId));
        continue;
      }
      out[k] = rewrite(v, base);
    }
    return out;
  };
  for (const doc of model.schemaDocs) {
    if (typeof doc.title === "string" && !isDefsOnly(doc.json))
      defs[doc.title] = rewrite(doc.json, doc.id);
    const docDefs = doc.json.$defs;
    if (isObject(docDefs))
      for (const [k, v] of Object.entries(docDefs)) defs[k] = rewrite(v, doc.id);
  }
  for (const tool of model.tools) {
    const names = ioTypeNames(tool.name);
    defs[names.input] = { ...(rewrite(tool.input.raw, tool.id) as JsonObject), title: names.input };
    const output = rewrite(tool.output.raw, tool.id) as JsonObject;
    defs[names.output] =
      typeof output.$ref === "string" && Object.keys(output).length === 1
        ? { title: names.output, allOf: [output] }
        : { ...output, title: names.output };
  }
  const sorted: JsonObject = {};
  for (const k of Object.keys(defs).sort()) sorted[k] = defs[k];
  return {
    title: "ContractTypeIndex",
    description: "Index of every named contract type.",
    type: "object",
    additionalProperties: false,
    properties: {},
    $defs: sorted,
  };
}

function isDefsOnly(json: JsonObject): boolean {
  return !(
    "type" in json ||
    "oneOf" in json ||
    "anyOf" in json ||
    "allOf" in json ||
    "enum" in json ||
    "const" in json ||
    "$ref" in json
  );
}

/** TypeScript types for every envelope, shared definition and tool input/output, in one file. */
export async function emitTypes(model: ContractModel): Promise<EmittedFile> {
  const ts = await compile(bundleForTypes(model) as never, "ContractTypeIndex", {
    bannerComment:
      `${generatedHeader(model)}\n/* TypeScript types of the coach ` +
      `contract; invariants are discriminated unions. */`,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    enableConstEnums: false,
    additionalProperties: false,
    strictIndexSignatures: false,
    unknownAny: true,
    format: false,
    $refOptions: { resolve: { http: false } } as never,
  });
  return { path: "generated/types.gen.ts", contents: ts };
}
