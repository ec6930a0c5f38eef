import { envelopeCompat } from "../../../../checks/diff/rules/envelope-compat.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/envelope-compat.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, shared envelopes: ENVELOPE_NARROWED, ENVELOPE_WIDENED, ENVELOPE_REMOVED, ENVELOPE_PROPERTY_ADDED, ENVELOPE_ADDED", () => {
  proveByCorpus(envelopeCompat, [
    {
      rule: "ENVELOPE_NARROWED",
      severity: "error",
      fires: "envelope-narrowed",
      pointer: "/envelopes/Receipt/properties/kind",
      message: /\/envelopes\/Receipt: value "recall" is no longer accepted at \/properties\/kind/,
      quiet: { reversed: "envelope-narrowed" },
    },
    {
      rule: "ENVELOPE_WIDENED",
      severity: "error",
      fires: "envelope-widened",
      pointer: "/envelopes/Receipt/properties/kind",
      message: /new values may carry value "exam", which old readers do not accept/,
      quiet: { reversed: "envelope-widened" },
    },
    {
      rule: "ENVELOPE_REMOVED",
      severity: "error",
      fires: "envelope-removed",
      pointer: "/envelopes/Receipt",
      message: /envelope Receipt was removed/,
      quiet: "envelope-added",
    },
    {
      rule: "ENVELOPE_PROPERTY_ADDED",
      severity: "note",
      fires: "envelope-open-property-added",
      pointer: "/envelopes/Extensions/properties/badge",
      message: /new values may carry property "badge", which old readers do not know/,
      quiet: "envelope-widened",
    },
    {
      rule: "ENVELOPE_ADDED",
      severity: "note",
      fires: "envelope-added",
      pointer: "/envelopes/Continuation",
      message: /new envelope Continuation/,
      quiet: "envelope-removed",
    },
  ]);
});
