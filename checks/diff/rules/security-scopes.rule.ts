import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import type { DiffTool } from "../../../contract/contract-doc.js";
import { sampleValue } from "../sample.js";

const scopeAdded = defineRule({
  id: "SECURITY_SCOPE_ADDED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "An existing tool requires an OAuth scope old grants lack.",
  message: "{tool} now requires OAuth scope {scope}; tokens granted for the old contract lack it",
});
const noauthRemoved = defineRule({
  id: "SECURITY_AUTH_REQUIRED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A tool that allowed anonymous calls (noauth) now requires OAuth.",
  message: "{tool} no longer accepts anonymous calls",
});
const scopeRemoved = defineRule({
  id: "SECURITY_SCOPE_REMOVED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary: "A tool requires fewer OAuth scopes than before.",
  message: "{tool} no longer requires OAuth scope {scope}",
});

const scopes = (t: DiffTool) =>
  new Set((t.securitySchemes ?? []).filter((s) => s.type === "oauth2").flatMap((s) => s.scopes));
const allowsAnonymous = (t: DiffTool) =>
  t.securitySchemes === undefined || t.securitySchemes.some((s) => s.type === "noauth");

/** OAuth scope and auth-requirement changes per tool (`securitySchemes`). */
export const securityScopes: DiffCheck = {
  rules: [scopeAdded, noauthRemoved, scopeRemoved],
  check(ctx, report) {
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const at = { side: "new" as const, pointer: `${after.pointer}/securitySchemes` };
      const pointer = `/tools/${name}/securitySchemes`;
      const b = scopes(before),
        a = scopes(after);
      const call = () => ({ name, arguments: sampleValue(before.input) });
      for (const scope of [...a].filter((s) => !b.has(s)).sort())
        report(
          scopeAdded,
          { tool: name, scope },
          {
            tool: name,
            pointer: `${pointer}/scopes/${scope}`,
            at,
            before: [...b].sort(),
            after: [...a].sort(),
            witness: {
              kind: "call",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { ...call(), grantedScopes: [...b].sort() },
              verified: true,
            },
          },
        );
      for (const scope of [...b].filter((s) => !a.has(s)).sort())
        report(
          scopeRemoved,
          { tool: name, scope },
          {
            tool: name,
            pointer: `${pointer}/scopes/${scope}`,
            at,
            before: [...b].sort(),
            after: [...a].sort(),
          },
        );
      if (
        allowsAnonymous(before) &&
        !allowsAnonymous(after) &&
        before.securitySchemes !== undefined
      )
        report(
          noauthRemoved,
          { tool: name },
          {
            tool: name,
            pointer,
            at,
            before: before.securitySchemes,
            after: after.securitySchemes ?? null,
            witness: {
              kind: "call",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { ...call(), grantedScopes: [] },
              verified: true,
            },
          },
        );
    }
  },
};
