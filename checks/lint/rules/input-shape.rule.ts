import { isFreeTextString, isOpenObject } from "../../../contract/schema-predicates.js";
import { walkSchema } from "../../../json-schema/walk.js";
import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { isObject } from "../../../json-schema/schema-facts.js";
import { createLintRule } from "../lint-rule.js";

/**
 * No chat free text reaches the backend (C5, G11, C16): every string input is an enum, const,
 * pattern or format.
 */
export const freeTextInput = createLintRule({
  id: "GATE_FREE_TEXT_INPUT",
  severity: "error",
  summary:
    "Tool inputs accept no free-text strings: each string needs enum, const, " +
    "pattern or format (C5, G11, C16).",
  check(tools, doc, report) {
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        if (!("type" in node) && !("enum" in node) && !("const" in node)) return;
        if (isFreeTextString(node))
          report(
            `${t.name}: string input without enum/const/pattern/format lets chat ` +
              `free text reach the backend`,
            { file: doc.file, pointer },
          );
      });
  },
});

/**
 * Unknown properties are rejected before the domain runs (C5, L8): every input object is closed.
 */
export const closedInput = createLintRule({
  id: "GATE_INPUT_NOT_CLOSED",
  severity: "error",
  summary: "Every object in a tool input sets additionalProperties:false (C5, L8).",
  check(tools, doc, report) {
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        if (isOpenObject(node))
          report(
            `${t.name}: input object accepts unknown properties; set additionalProperties:false`,
            { file: doc.file, pointer: pointerJoin(pointer, "additionalProperties") },
          );
      });
  },
});

// Inputs that restate backend-owned state (C1, C16) or let the model synthesize identifiers/URLs
// (C16).
const derivableNames = [
  "stateVersion",
  "communicationLocale",
  "locale",
  "language",
  "activeGoalId",
  "currentGoalId",
  "workflowVersion",
  "curriculumRevision",
  "stateSchemaVersion",
  "mastery",
  "frontier",
  "focus",
  "userId",
  "learnerId",
  "accountId",
  "internalId",
];
const derivable = new RegExp(`^(${derivableNames.join("|")})$|Url$|^url$`);

/** Zero backend-derivable inputs (G2, C1, C16). */
export const derivableInput = createLintRule({
  id: "GATE_DERIVABLE_INPUT",
  severity: "error",
  summary:
    "No inputs the backend can derive (state, locale, versions, learner ids) and " +
    "no model-synthesized URLs (G2, C1, C16).",
  check(tools, doc, report) {
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        for (const name of Object.keys(isObject(node.properties) ? node.properties : {}))
          if (derivable.test(name))
            report(
              `${t.name}: input ${name} duplicates backend state or lets the ` +
                `model invent an identifier`,
              { file: doc.file, pointer: pointerJoin(pointer, "properties", name) },
            );
      });
  },
});

/**
 * One cohesive user action per tool (G1, C4): an `action`/`operation`/`mode` switch hints at
 * several tools in one.
 */
export const multiActionTool = createLintRule({
  id: "GATE_MULTI_ACTION_TOOL",
  severity: "warning",
  summary:
    "A tool whose input switches between operations (action/operation/mode enum) " +
    "bundles several user actions (G1, C4).",
  check(tools, doc, report) {
    for (const t of tools) {
      const props =
        isObject(t.rawInput) && isObject(t.rawInput.properties) ? t.rawInput.properties : {};
      for (const [name, schema] of Object.entries(props))
        if (
          /^(action|operation|op|command|mode|verb)$/i.test(name) &&
          isObject(schema) &&
          Array.isArray(schema.enum) &&
          schema.enum.length > 1
        )
          report(
            `${t.name}: input ${name} selects between ${schema.enum.length} ` +
              `operations; split them into cohesive tools`,
            { file: doc.file, pointer: `${t.pointer}/inputSchema/properties/${name}` },
          );
    }
  },
});
