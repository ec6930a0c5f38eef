/**
 * Every module that declares rules, imported for its registration in the rule table: loading this
 * file makes the table complete, so `docs/rules.md` (tools/rules-doc.ts) lists every rule. A test
 * checks that each module calling `defineRule(` is listed here.
 */
import "../bin/io-failure.js";
import "../checks/diff/contract-diff.js";
import "../contract/contract-doc.js";
import "../contract/normalize.js";
import "../checks/diff/run-diff.js";
import "../checks/diff/rules/annotations.rule.js";
import "../checks/diff/rules/docs-only.rule.js";
import "../checks/diff/rules/envelope-compat.rule.js";
import "../checks/diff/rules/input-compat.rule.js";
import "../checks/diff/rules/output-compat.rule.js";
import "../checks/diff/rules/security-scopes.rule.js";
import "../checks/diff/rules/tool-presence.rule.js";
import "../checks/diff/rules/ui-binding.rule.js";
import "../checks/diff/rules/ui-bytes.rule.js";
import "../checks/diff/waivers.js";
import "../checks/lint/rules/annotations.rule.js";
import "../checks/lint/rules/imperative-channel.rule.js";
import "../checks/lint/rules/input-shape.rule.js";
import "../checks/lint/rules/item-loop.rule.js";
import "../checks/lint/rules/secret-output.rule.js";
import "../checks/lint/rules/ui-binding.rule.js";
import "../checks/lint/rules/write-envelope.rule.js";
import "../checks/skill-lint/skill-lint.js";
import "../checks/skill-lint/skill-refs.js";
import "../generator/build-model.js";
import "../generator/rules/annotations-kind.rule.js";
import "../generator/rules/closed-input.rule.js";
import "../generator/rules/free-text-input.rule.js";
import "../generator/rules/pattern.rule.js";
import "../generator/rules/prefix-items.rule.js";
import "../generator/rules/schema-refs.rule.js";
import "../generator/rules/tool-name.rule.js";
import "../generator/rules/ui-binding.rule.js";
import "../generator/rules/unknown-keyword.rule.js";
import "../generator/write.js";
import "../json-schema/deref.js";
import "../json-schema/registry.js";
import "../json-schema/source.js";
import "../release/freeze/freeze.js";
import "../release/line/check-line.js";
import "../release/line/line-history.js";
import "../release/prepare/assemble-draft.js";
import "../release/prepare/prepare.js";
import "../release/publish/record-published.js";
import "../release/verify/freeze.check.js";
import "../release/verify/manifest-gate.rules.js";
import "../release/verify/published.check.js";
import "../release/verify/since-ref.js";
import "../release/verify/ui-activations.check.js";
import "../release/verify/ui-retention.check.js";
import "../release/verify/verify.js";
import "../tools/rule-index.js";
