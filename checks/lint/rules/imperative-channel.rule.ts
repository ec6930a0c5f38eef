import { walkSchema } from "../../../json-schema/walk.js";
import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { isObject } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

/**
 * One authoritative imperative (C10, G4): a full context says `(requiredAction, instruction)`, a
 * finished workflow says one `continuation`. A `presentationAction` or two imperatives side by side
 * compete.
 */
export const competingImperative = lintRule(
  defineRule({
    id: "GATE_COMPETING_IMPERATIVE",
    family: "lint",
    severity: "error",
    summary:
      "Outputs carry one imperative: no presentationAction, never continuation " +
      "beside requiredAction (C10, G4).",
    message: {
      presentation: "{tool}: output carries presentationAction, a second imperative channel",
      both: "{tool}: output carries both continuation and requiredAction; keep exactly one",
    },
  }),
  (tools, doc, report) => {
    for (const t of tools)
      walkSchema(t.rawOutput, `${t.pointer}/outputSchema`, (node, pointer) => {
        const props = isObject(node.properties) ? Object.keys(node.properties) : [];
        if (props.includes("presentationAction"))
          report(
            { variant: "presentation", tool: t.name },
            { file: doc.file, pointer: pointerJoin(pointer, "properties", "presentationAction") },
          );
        if (props.includes("continuation") && props.includes("requiredAction"))
          report(
            { variant: "both", tool: t.name },
            { file: doc.file, pointer: pointerJoin(pointer, "properties", "continuation") },
          );
      });
  },
);
