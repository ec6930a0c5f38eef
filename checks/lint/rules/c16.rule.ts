import { FreeTextJudge } from "../../../contract-model/text/free-text.js";
import { isProseString } from "../../../contract-model/trace/prose-value.js";
import { envelopeTitles } from "../../../contract-model/trace/turn-facts.js";
import { pointerJoin } from "../../../diagnostics/diagnostic.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { isObject, propertiesOf, requiredOf } from "../../../json-schema/schema-facts.js";
import { walkSchema } from "../../../json-schema/walk.js";
import { type LintTool, lintRule } from "../lint-rule.js";

/** The contract's name (schema title) of the receipt envelope. */
const RECEIPT_TITLE = "Receipt";

/**
 * Whether an output proves what a write committed (G7): it requires a receipt (the Receipt
 * envelope, a `receipt` or `receiptId`), is or requires the complete successor context, or
 * requires the `stateVersion` it left.
 */
function receiptBacked(output: unknown): boolean {
  if (!isObject(output)) return false;
  if (output.title === envelopeTitles.fullContext) return true;
  const props = propertiesOf(output);
  for (const name of requiredOf(output)) {
    const p = props[name];
    if (/^receipt(Id)?$/i.test(name) || name === "stateVersion") return true;
    if (isObject(p) && (p.title === RECEIPT_TITLE || p.title === envelopeTitles.fullContext))
      return true;
  }
  return false;
}

/** An idempotent write whose only input is the session handle opens a workflow; it saves nothing. */
const opensWorkflow = (t: LintTool) =>
  t.annotations?.idempotentHint === true &&
  isObject(t.rawInput) &&
  Object.keys(propertiesOf(t.rawInput)).length <= 1;

/** No unreceipted save claims (C16, G7): every write's output proves what it committed. */
export const unreceiptedWrite = lintRule(
  defineRule({
    id: "GATE_UNRECEIPTED_WRITE",
    family: "lint",
    severity: "error",
    summary:
      "A write tool's output requires a receipt or the complete successor state, so a saved " +
      "claim is always receipt-backed (C16, G7).",
    message:
      "{tool} writes, but its output requires no receipt and no successor state: a model " +
      "would claim a save nothing proves",
  }),
  (tools, doc, report) => {
    for (const t of tools)
      if (
        t.effectiveKind !== "read" &&
        !opensWorkflow(t) &&
        !(t.hasOutputSchema && receiptBacked(t.rawOutput))
      )
        report({ tool: t.name }, { file: doc.file, pointer: `${t.pointer}/outputSchema` });
  },
);

/** Output fields whose language is prose, by their property name: what a model would echo back. */
function proseOutputNames(tools: readonly LintTool[]): Set<string> {
  const judge = new FreeTextJudge();
  const names = new Set<string>();
  for (const t of tools)
    for (const f of judge.fields(t.rawOutput ?? {})) {
      const name = /([A-Za-z0-9_]+)(?:\[\])*$/.exec(f.field)?.[1];
      if (name) names.add(name);
    }
  return names;
}

/** No exact-string backend NLP (C16, C14): the backend never matches phrases or echoed prose. */
export const exactStringMatch = lintRule(
  defineRule({
    id: "GATE_EXACT_STRING_MATCH",
    family: "lint",
    severity: "error",
    summary:
      "Tool inputs never ask the backend to match exact strings: no enum or const of phrases, " +
      "no input echoing a prose output field; use ids or opaque option payloads (C16, C14, G8).",
    message: {
      phrase: "{tool}: input {input} makes the model produce the exact phrase {value:json}",
      echo:
        "{tool}: input {input} takes back the prose output field {input} for the backend " +
        "to match; send an id or the option's opaque payload",
    },
  }),
  (tools, doc, report) => {
    const echoed = proseOutputNames(tools);
    for (const t of tools)
      walkSchema(t.rawInput, `${t.pointer}/inputSchema`, (node, pointer) => {
        const values = [
          ...(Array.isArray(node.enum) ? node.enum : []),
          ...("const" in node ? [node.const] : []),
        ];
        const phrase = values.find((v) => typeof v === "string" && isProseString(v));
        if (phrase !== undefined)
          report(
            {
              variant: "phrase",
              tool: t.name,
              input: pointer.split("/").pop() ?? "",
              value: phrase,
            },
            { file: doc.file, pointer },
          );
        for (const [name, schema] of Object.entries(propertiesOf(node)))
          if (
            echoed.has(name) &&
            isObject(schema) &&
            (schema.type === "string" || schema.type === undefined) &&
            !("enum" in schema) &&
            !("const" in schema)
          )
            report(
              { variant: "echo", tool: t.name, input: name },
              { file: doc.file, pointer: pointerJoin(pointer, "properties", name) },
            );
      });
  },
);
