import { FreeTextJudge } from "../../../contract-model/text/free-text.js";
import { isOpenObject } from "../../../contract-model/schema-predicates.js";
import { walkSchema } from "../../../json-schema/walk.js";
import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { isObject } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

/**
 * No chat free text reaches the backend (C5, G11, C16), decided by behaviour: every field of every
 * tool input, nested ones included, is validated with the project's Ajv against ordinary prose
 * samples; a field that accepts one is free text, whatever its keywords (the same check as the
 * generator's FREE_TEXT_INPUT).
 */
export const freeTextInput = lintRule(
  defineRule({
    id: "GATE_FREE_TEXT_INPUT",
    family: "lint",
    severity: "error",
    summary:
      "Tool inputs accept no free text: no input field (typed or not, nested ones included) may " +
      "accept an ordinary prose sample; use enum, const, a format or a pattern that admits " +
      "identifiers only (C5, G11, C16).",
    message:
      "{tool}: input {field} accepts ordinary prose such as {accepted:json}, " +
      "so chat free text reaches the backend",
  }),
  (tools, doc, report) => {
    const judge = new FreeTextJudge();
    for (const t of tools)
      for (const found of judge.fields(t.rawInput))
        report(
          { tool: t.name, field: found.field, accepted: found.accepted },
          { file: doc.file, pointer: `${t.pointer}/inputSchema${found.pointer}` },
        );
  },
);

/**
 * Unknown properties are rejected before the domain runs (C5, L8): every input object is closed.
 */
export const closedInput = lintRule(
  defineRule({
    id: "GATE_INPUT_NOT_CLOSED",
    family: "lint",
    severity: "error",
    summary: "Every object in a tool input sets additionalProperties:false (C5, L8).",
    message: "{tool}: input object accepts unknown properties; set additionalProperties:false",
  }),
  (tools, doc, report) => {
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        if (isOpenObject(node))
          report(
            { tool: t.name },
            { file: doc.file, pointer: pointerJoin(pointer, "additionalProperties") },
          );
      });
  },
);

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
export const derivableInput = lintRule(
  defineRule({
    id: "GATE_DERIVABLE_INPUT",
    family: "lint",
    severity: "error",
    summary:
      "No inputs the backend can derive (state, locale, versions, learner ids) and " +
      "no model-synthesized URLs (G2, C1, C16).",
    message:
      "{tool}: input {input} duplicates backend state or lets the model invent an identifier",
  }),
  (tools, doc, report) => {
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        for (const name of Object.keys(isObject(node.properties) ? node.properties : {}))
          if (derivable.test(name))
            report(
              { tool: t.name, input: name },
              { file: doc.file, pointer: pointerJoin(pointer, "properties", name) },
            );
      });
  },
);

/**
 * One cohesive user action per tool (G1, C4): an `action`/`operation`/`mode` switch hints at
 * several tools in one.
 */
export const multiActionTool = lintRule(
  defineRule({
    id: "GATE_MULTI_ACTION_TOOL",
    family: "lint",
    severity: "warning",
    summary:
      "A tool whose input switches between operations (action/operation/mode enum) " +
      "bundles several user actions (G1, C4).",
    message:
      "{tool}: input {input} selects between {count} operations; split them into cohesive tools",
  }),
  (tools, doc, report) => {
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
            { tool: t.name, input: name, count: schema.enum.length },
            { file: doc.file, pointer: `${t.pointer}/inputSchema/properties/${name}` },
          );
    }
  },
);
