import { defineRule } from "../../../diagnostics/rule.js";
import { directoryRule } from "./directory-rule.js";

/** An exact https origin: no wildcard, no path, no other scheme. */
const exactOrigin = /^https:\/\/[A-Za-z0-9.-]+(:\d+)?$/;

/**
 * Every widget runs under a declared CSP whose lists name exact https origins: reviewers flag
 * wildcards and broad schemes, and a widget without a declared CSP gets the host's strictest
 * default or a rejection.
 */
export const widgetCspDeclared = directoryRule(
  defineRule({
    id: "DIRECTORY_WIDGET_CSP",
    family: "lint",
    severity: "error",
    summary:
      "Every widget declares its CSP, and each CSP list names exact https origins only (no " +
      "wildcards).",
    message: {
      undeclared:
        "{tool} renders {uri} but the listing declares no widget CSP for it; declare _meta.ui.csp on the resource",
      broad:
        "{tool}: the widget CSP list {list} allows {origin:json}; name exact https origins only",
    },
  }),
  ["openai-directory", "claude-directory"],
  (tools, doc, ctx, report) => {
    for (const t of tools) {
      if (!t.uiUri) continue;
      const at = { file: doc.file, pointer: `${t.pointer}/_meta` };
      const csp = ctx.cspOf(t);
      if (!csp) {
        // A plain listing may declare the CSP on the resource, which it does not include.
        const severity = doc.format === "snapshot" ? "error" : "warning";
        report({ variant: "undeclared", tool: t.name, uri: t.uiUri }, at, severity);
        continue;
      }
      for (const [list, origins] of Object.entries(csp).sort())
        for (const origin of origins)
          if (!exactOrigin.test(origin))
            report({ variant: "broad", tool: t.name, list, origin }, at);
    }
  },
);
