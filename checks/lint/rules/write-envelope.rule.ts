import { propertiesOf, requiredOf, isObject } from "../../../json-schema/schema-facts.js";
import { defineRule } from "../../../diagnostics/rule.js";
import { lintRule } from "../lint-rule.js";

/**
 * Writes carry the optimistic lock and the idempotency key (C8, L8, G5, G6): `expectedStateVersion`
 * and `clientRequestId`, both required, or a required opaque `…Capability` that carries that
 * authority (C11). An idempotent write whose only input is the session handle
 * (start_…_verified_recall, C12) is exempt: retrying it returns the same open batch.
 */
export const writeEnvelope = lintRule(
  defineRule({
    id: "GATE_WRITE_ENVELOPE",
    family: "lint",
    severity: "error",
    summary:
      "Write tools require expectedStateVersion + clientRequestId, or an opaque " +
      "capability (C8, L8, G5, G6).",
    message:
      "{tool} mutates state but does not require expectedStateVersion + clientRequestId or an opaque capability",
  }),
  (tools, doc, report) => {
    for (const t of tools) {
      if (t.effectiveKind === "read" || !isObject(t.rawInput)) continue;
      const props = Object.keys(propertiesOf(t.rawInput));
      const req = requiredOf(t.rawInput);
      const locked = req.has("expectedStateVersion") && req.has("clientRequestId");
      const capability = [...req].some((n) => /Capability$/.test(n));
      const idempotentStart =
        t.annotations?.idempotentHint === true && props.every((p) => p === "learningSessionId");
      if (!locked && !capability && !idempotentStart)
        report({ tool: t.name }, { file: doc.file, pointer: `${t.pointer}/inputSchema/required` });
    }
  },
);
