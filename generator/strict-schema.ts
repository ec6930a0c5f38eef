import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import type { ContractModel } from "./model.js";

const SCHEMA_NOT_STRICT = defineRule({
  id: "SCHEMA_NOT_STRICT",
  family: "generator",
  severity: "error",
  summary:
    "A schema breaks Ajv strict mode (e.g. a keyword without the type it applies to, such as a " +
    "pattern in an untyped allOf branch), so its validator cannot be compiled.",
  message: "{error}; state the type the keyword applies to (strict mode)",
});

/** Whether an emitter failed on Ajv's strict mode (a problem of the schema, not of the code). */
export function isStrictModeError(error: unknown): error is Error {
  return error instanceof Error && error.message.startsWith("strict mode:");
}

/** The value at a JSON pointer, or undefined. */
function at(json: unknown, pointer: string): unknown {
  let node = json;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Ajv names where strict mode failed as `"<$id>#<pointer>"`: map it to the source file and pointer
 * (a tool's input or output, or a schema document); the first tool or document otherwise.
 */
function locate(message: string, model: ContractModel): Location {
  const m = /at "([^"#]*)#([^"]*)"/.exec(message);
  const [id, pointer] = m ? [m[1], decodeURIComponent(m[2])] : ["", ""];
  const tool = model.tools.find((t) => t.id === id);
  if (tool) {
    const side = ["input", "output"].find((s) =>
      at({ input: tool.input.raw, output: tool.output.raw }, `/${s}${pointer}`),
    );
    return { file: tool.file, pointer: side ? `/${side}${pointer}` : pointer };
  }
  const doc = model.schemaDocs.find((d) => d.id === id);
  if (doc) return { file: doc.file, pointer };
  return { file: model.tools[0]?.file ?? "schemas" };
}

/** The diagnostic of an emitter's strict-mode failure. */
export function strictModeDiagnostic(error: Error, model: ContractModel): Diagnostic {
  return diagnose(
    SCHEMA_NOT_STRICT,
    { error: error.message.replace(/^strict mode: /, "") },
    locate(error.message, model),
  );
}
