import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";
import type { DiffTool } from "../../../contract-model/contract-doc.js";
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
const anonymousAllowed = defineRule({
  id: "SECURITY_ANONYMOUS_ALLOWED",
  family: "diff",
  bump: "minor",
  severity: "note",
  summary: "A tool that required OAuth now also accepts anonymous calls (noauth): an addition.",
  message: "{tool} now also accepts anonymous calls",
});
const scopeRemoved = defineRule({
  id: "SECURITY_SCOPE_REMOVED",
  family: "diff",
  bump: "patch",
  severity: "note",
  summary: "A tool requires fewer OAuth scopes than before.",
  message: "{tool} no longer requires OAuth scope {scope}",
});

const infoMissing = defineRule({
  id: "SECURITY_INFO_MISSING",
  family: "diff",
  bump: "none",
  severity: "warning",
  summary:
    "One side carries no security information at all (no securitySchemes, top-level or in " +
    "_meta), so OAuth scopes were not compared.",
  message:
    "{file} carries no security information ({side} side: no tool has securitySchemes, top-level or in _meta); OAuth scopes and auth requirements were not compared. Clients such as the MCP Inspector and the SDK clients drop securitySchemes from tools/list: diff against a raw tools/list or a snapshot to compare them",
});

const hasSecurityInfo = (tools: Iterable<DiffTool>) =>
  [...tools].some((t) => t.securitySchemes !== undefined);

const scopes = (t: DiffTool) =>
  new Set((t.securitySchemes ?? []).filter((s) => s.type === "oauth2").flatMap((s) => s.scopes));
const allowsAnonymous = (t: DiffTool) =>
  t.securitySchemes === undefined || t.securitySchemes.some((s) => s.type === "noauth");

/** OAuth scope and auth-requirement changes per tool (`securitySchemes`). */
export const securityScopes: DiffCheck = {
  rules: [scopeAdded, noauthRemoved, anonymousAllowed, scopeRemoved, infoMissing],
  check(ctx, report) {
    // A side without any security information says nothing about scopes: comparing it would
    // invent a change for every tool (e.g. a tools/list captured by a client that drops the field).
    const oldInfo = hasSecurityInfo(ctx.old.tools.values());
    const newInfo = hasSecurityInfo(ctx.new.tools.values());
    if (oldInfo !== newInfo) {
      const side = oldInfo ? "new" : "old";
      report(
        infoMissing,
        { side, file: side === "old" ? ctx.old.file : ctx.new.file },
        { pointer: "/securitySchemes", at: { side, pointer: "" }, before: oldInfo, after: newInfo },
      );
      return;
    }
    for (const [name, before] of ctx.old.tools) {
      const after = ctx.new.tools.get(name);
      if (!after) continue;
      const at = {
        side: "new" as const,
        pointer: after.securityPointer ?? `${after.pointer}/securitySchemes`,
      };
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
      if (!allowsAnonymous(before) && allowsAnonymous(after) && after.securitySchemes !== undefined)
        report(
          anonymousAllowed,
          { tool: name },
          {
            tool: name,
            pointer,
            at,
            before: before.securitySchemes ?? null,
            after: after.securitySchemes,
            witness: {
              kind: "call",
              acceptedBy: "new",
              rejectedBy: "old",
              value: { ...call(), grantedScopes: [] },
              verified: true,
            },
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
