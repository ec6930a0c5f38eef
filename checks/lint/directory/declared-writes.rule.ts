import { defineRule } from "../../../diagnostics/rule.js";
import { propertiesOf, requiredOf } from "../../../json-schema/schema-facts.js";
import { isObject } from "../../../json-schema/walk.js";
import { directoryRule } from "./directory-rule.js";

/**
 * What the tool's own schemas declare about writing: a required idempotency key (with or without
 * the optimistic lock) or a receipt in the result. A required capability alone proves nothing:
 * reads take capabilities too.
 */
function declaredWrite(input: unknown, output: unknown): string | undefined {
  const req = isObject(input) ? requiredOf(input) : new Set<string>();
  if (req.has("clientRequestId")) return "requires the idempotency key clientRequestId";
  if (isObject(output) && "receipt" in propertiesOf(output)) return "returns a write receipt";
  return undefined;
}

/**
 * A readOnlyHint reviewers can trust: a tool whose schemas declare a write is not read-only, and
 * a read-only tool is never destructive. ChatGPT review reads openWorldHint as "changes public or
 * third-party state", so there a read-only tool is not open-world either (MCP itself allows a
 * read-only open-world search, and so does the Claude profile). A wrong readOnlyHint is an
 * instant rejection.
 */
export const hintsMatchDeclaredWrites = directoryRule(
  defineRule({
    id: "DIRECTORY_HINT_CONTRADICTS_WRITES",
    family: "lint",
    severity: "error",
    summary:
      "readOnlyHint agrees with the writes the tool's schemas declare; a read-only tool is not " +
      "destructive (nor, for ChatGPT, open-world).",
    message: {
      write: "{tool} claims readOnlyHint:true but {evidence}",
      read: "{tool} claims readOnlyHint:true and {hint}:true; a tool that only reads cannot be both",
    },
  }),
  ["openai-directory", "claude-directory"],
  (tools, doc, ctx, report) => {
    for (const t of tools) {
      if (t.annotations?.readOnlyHint !== true) continue;
      const at = { file: doc.file, pointer: `${t.pointer}/annotations/readOnlyHint` };
      const evidence = declaredWrite(t.rawInput, t.rawOutput);
      if (evidence) report({ variant: "write", tool: t.name, evidence }, at);
      const exclusive =
        ctx.profile === "openai-directory"
          ? (["destructiveHint", "openWorldHint"] as const)
          : (["destructiveHint"] as const);
      for (const hint of exclusive)
        if (t.annotations?.[hint] === true) report({ variant: "read", tool: t.name, hint }, at);
    }
  },
);
