import { walkSchema } from "../../../json-schema/walk.js";
import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { isObject } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

// Property names that betray secrets, tokens, permanent internal ids or server paths (C15).
const secretWords = "secret|password|passwd|token|apikey|api_key|privatekey|private_key|credential";
const idOwners = "user|learner|account|internal|row|db|database|tenant";
const forbidden = new RegExp(
  `(${secretWords}|^(${idOwners})_?id$|(file|dir|directory|internal)_?path$|^path$)`,
  "i",
);

/**
 * Nothing model-visible names a secret, token, internal id or path (C15). App-only tools are
 * skipped: the model never sees them.
 */
export const secretOutput = lintRule(
  defineRule({
    id: "GATE_SECRET_OUTPUT",
    family: "lint",
    severity: "error",
    summary:
      "No model-visible output property is named like a secret, token, internal id or path (C15).",
    message:
      "{tool}: model-visible output property {property} looks like a secret, token, internal id or path",
  }),
  (tools, doc, report) => {
    for (const t of tools) {
      if (t.appOnly) continue;
      walkSchema(t.rawOutput, `${t.pointer}/outputSchema`, (node, pointer) => {
        for (const name of Object.keys(isObject(node.properties) ? node.properties : {}))
          if (forbidden.test(name))
            report(
              { tool: t.name, property: name },
              { file: doc.file, pointer: pointerJoin(pointer, "properties", name) },
            );
      });
    }
  },
);
