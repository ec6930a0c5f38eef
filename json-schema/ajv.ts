import { Ajv2020, type ErrorObject, type Options } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { toolReferenceKeyword } from "./keywords.js";
import { countingCodeProcess } from "./schema-compilations.js";

/**
 * A strict draft 2020-12 Ajv with formats, the one configuration the whole project validates with.
 * Every validator it compiles is counted (`schemaCompilations`).
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const code = { ...options.code, process: countingCodeProcess(options.code?.process) };
  const ajv = new Ajv2020({ strict: true, allErrors: false, ...options, code });
  addFormats.default(ajv);
  // An annotation: it validates nothing (the enum beside it does).
  ajv.addKeyword({ keyword: toolReferenceKeyword, schemaType: "boolean" });
  return ajv;
}

/** JSON pointer of an Ajv error, pointing at the offending property itself where Ajv names one. */
export function ajvErrorPointer(error: ErrorObject): string {
  const extra =
    error.keyword === "additionalProperties"
      ? `/${String(error.params.additionalProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`
      : "";
  return error.instancePath + extra;
}

/** A short message for an Ajv error. */
export function ajvErrorMessage(error: ErrorObject): string {
  if (error.keyword === "additionalProperties")
    return `unknown property ${JSON.stringify(error.params.additionalProperty)}`;
  if (error.keyword === "required")
    return `missing required property ${JSON.stringify(error.params.missingProperty)}`;
  return `${error.instancePath || "/"} ${error.message ?? error.keyword}`;
}
