import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

const hints = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** All four hints explicit (C4): MCP defaults are pessimistic and hosts act on them. */
export const explicitAnnotations = lintRule(
  defineRule({
    id: "GATE_ANNOTATIONS_IMPLICIT",
    family: "lint",
    severity: "error",
    summary:
      "Every tool states readOnlyHint, destructiveHint, idempotentHint and " +
      "openWorldHint explicitly (C4).",
    message: "{tool}: annotation {hint} is not stated; the MCP default applies",
  }),
  (tools, doc, report) => {
    for (const t of tools)
      for (const h of hints)
        if (typeof t.annotations?.[h] !== "boolean")
          report(
            { tool: t.name, hint: h },
            { file: doc.file, pointer: `${t.pointer}/annotations` },
          );
  },
);

/**
 * Annotations tell the truth about the tool's kind (C4): reads are read-only and harmless, writes
 * are not read-only.
 */
export const truthfulAnnotations = lintRule(
  defineRule({
    id: "GATE_ANNOTATIONS_UNTRUTHFUL",
    family: "lint",
    severity: "error",
    summary:
      "Annotations agree with the tool's kind: reads readOnly and non-destructive, " +
      "writes not readOnly; never readOnly and destructive (C4).",
    message: {
      both: "{tool}: readOnlyHint and destructiveHint are both true",
      read: "{tool} is a read tool but its annotations claim it may write or destroy",
      write: "{tool} mutates state but claims readOnlyHint:true",
    },
  }),
  (tools, doc, report) => {
    for (const t of tools) {
      const a = t.annotations ?? {};
      const at = { file: doc.file, pointer: `${t.pointer}/annotations` };
      if (a.readOnlyHint === true && a.destructiveHint === true)
        report({ variant: "both", tool: t.name }, at);
      if (t.kind === "read" && (a.readOnlyHint !== true || a.destructiveHint === true))
        report({ variant: "read", tool: t.name }, at);
      if ((t.kind === "write" || t.kind === "app-only") && a.readOnlyHint === true)
        report({ variant: "write", tool: t.name }, at);
    }
  },
);
