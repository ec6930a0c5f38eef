import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { ajvErrorMessage, ajvErrorPointer, type createAjv } from "../../json-schema/ajv.js";
import type { SourceFile } from "../../json-schema/source.js";
import type { JsonObject } from "../../json-schema/walk.js";

/** The compiler the schema phases share (built once per run). */
export type Ajv = ReturnType<typeof createAjv>;

const SCHEMA_INVALID = defineRule({
  id: "SCHEMA_INVALID",
  family: "generator",
  severity: "error",
  summary: "A schema document is not a valid JSON Schema 2020-12 document.",
  message: "{error}",
});

/** Every schema document against the JSON Schema 2020-12 meta-schema. */
export function metaSchemaProblems(ajv: Ajv, schemaDocs: readonly SourceFile[]) {
  const out: Diagnostic[] = [];
  for (const doc of schemaDocs)
    if (!ajv.validateSchema(doc.json as object))
      for (const e of ajv.errors ?? [])
        out.push(
          diagnose(
            SCHEMA_INVALID,
            { error: ajvErrorMessage(e) },
            { file: doc.file, pointer: ajvErrorPointer(e) },
          ),
        );
  return out;
}

/**
 * Add every schema document to `ajv` and compile it: strict-mode compile failures (e.g. `required`
 * naming an undeclared property) are schema problems, not crashes.
 */
export function compileProblems(ajv: Ajv, schemaDocs: readonly SourceFile[]) {
  const out: Diagnostic[] = [];
  for (const doc of schemaDocs) ajv.addSchema(doc.json as object);
  for (const doc of schemaDocs) {
    try {
      ajv.getSchema(String((doc.json as JsonObject).$id));
    } catch (error) {
      out.push(
        diagnose(
          SCHEMA_INVALID,
          { error: (error as Error).message },
          { file: doc.file, pointer: "" },
        ),
      );
    }
  }
  return out;
}
