import { createLintRule } from "../lint-rule.js";

const hints = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** All four hints explicit (C4): MCP defaults are pessimistic and hosts act on them. */
export const explicitAnnotations = createLintRule({
  id: "GATE_ANNOTATIONS_IMPLICIT",
  severity: "error",
  summary:
    "Every tool states readOnlyHint, destructiveHint, idempotentHint and " +
    "openWorldHint explicitly (C4).",
  check(tools, doc, report) {
    for (const t of tools)
      for (const h of hints)
        if (typeof t.annotations?.[h] !== "boolean")
          report(`${t.name}: annotation ${h} is not stated; the MCP default applies`, {
            file: doc.file,
            pointer: `${t.pointer}/annotations`,
          });
  },
});

/**
 * Annotations tell the truth about the tool's kind (C4): reads are read-only and harmless, writes
 * are not read-only.
 */
export const truthfulAnnotations = createLintRule({
  id: "GATE_ANNOTATIONS_UNTRUTHFUL",
  severity: "error",
  summary:
    "Annotations agree with the tool's kind: reads readOnly and non-destructive, " +
    "writes not readOnly; never readOnly and destructive (C4).",
  check(tools, doc, report) {
    for (const t of tools) {
      const a = t.annotations ?? {};
      const at = { file: doc.file, pointer: `${t.pointer}/annotations` };
      if (a.readOnlyHint === true && a.destructiveHint === true)
        report(`${t.name}: readOnlyHint and destructiveHint are both true`, at);
      if (t.kind === "read" && (a.readOnlyHint !== true || a.destructiveHint === true))
        report(`${t.name} is a read tool but its annotations claim it may write or destroy`, at);
      if ((t.kind === "write" || t.kind === "app-only") && a.readOnlyHint === true)
        report(`${t.name} mutates state but claims readOnlyHint:true`, at);
    }
  },
});
