import assert from "node:assert/strict";
import { placeholders, renderTemplate } from "../../diagnostics/message-template.js";
import {
  defineRule,
  diagnose,
  registeredRules,
  ruleById,
  ruleMessage,
} from "../../diagnostics/rule.js";

const single = defineRule({
  id: "TEST_RULE_SINGLE",
  family: "lint",
  severity: "error",
  summary: "A rule of the rule-table tests.",
  message: "{tool}: input {name:json} is not closed",
});
const variants = defineRule({
  id: "TEST_RULE_VARIANTS",
  family: "release",
  severity: "warning",
  summary: "A rule with two message variants.",
  message: { missing: "{file} is missing", stale: "{file} differs from {other}" },
});
const change = defineRule({
  id: "TEST_RULE_CHANGE",
  family: "diff",
  bump: "major",
  severity: "error",
  summary: "A change rule.",
  message: "tool {tool} was removed",
});

describe("diagnostics: one rule table (issue #11)", () => {
  it("registers a rule once: the same definition again returns it, another one throws", () => {
    assert.equal(ruleById("TEST_RULE_SINGLE"), single);
    assert.equal(
      defineRule({
        id: "TEST_RULE_SINGLE",
        family: "lint",
        severity: "error",
        summary: "A rule of the rule-table tests.",
        message: "{tool}: input {name:json} is not closed",
      }),
      single,
    );
    assert.throws(
      () =>
        defineRule({
          id: "TEST_RULE_SINGLE",
          family: "lint",
          severity: "warning",
          summary: "A rule of the rule-table tests.",
          message: "{tool}: input {name:json} is not closed",
        }),
      /TEST_RULE_SINGLE defined twice with different meaning/,
    );
    assert.throws(
      () =>
        defineRule({
          id: "TEST_RULE_SINGLE",
          family: "lint",
          severity: "error",
          summary: "A rule of the rule-table tests.",
          message: "{tool}: another wording",
        }),
      /defined twice/,
    );
  });

  it("rejects ids that are not SCREAMING_SNAKE_CASE, multi-line summaries and {variant}", () => {
    const spec = { family: "lint", severity: "note", summary: "s", message: "m" } as const;
    assert.throws(() => defineRule({ ...spec, id: "lowerCase" }), /SCREAMING_SNAKE_CASE/);
    assert.throws(() => defineRule({ ...spec, id: "TEST_X", summary: "a\nb" }), /one line/);
    assert.throws(
      () => defineRule({ ...spec, id: "TEST_Y", message: "{variant} here" }),
      /\{variant\}/,
    );
    assert.equal(ruleById("TEST_X"), undefined);
  });

  it("defaults the docs link to the rule's anchor in docs/rules.md; diff rules carry bump", () => {
    assert.equal(single.docs, "docs/rules.md#test_rule_single");
    assert.equal(change.bump, "major");
    assert.equal(change.waivable, true);
    assert.equal(single.bump, undefined);
    assert.ok(registeredRules().includes(change));
  });

  it("lists registered rules by family, then id", () => {
    const ids = registeredRules().map((r) => `${r.family}/${r.id}`);
    const lint = ids.indexOf("lint/TEST_RULE_SINGLE");
    const diff = ids.indexOf("diff/TEST_RULE_CHANGE");
    const release = ids.indexOf("release/TEST_RULE_VARIANTS");
    assert.ok(lint >= 0 && lint < diff && diff < release, ids.join(" "));
  });

  it("renders messages from templates: plain, JSON and variant placeholders", () => {
    const d = diagnose(single, { tool: "t", name: "a b" }, { file: "f.json", pointer: "/x" });
    assert.deepEqual(d, {
      ruleId: "TEST_RULE_SINGLE",
      severity: "error",
      message: 't: input "a b" is not closed',
      location: { file: "f.json", pointer: "/x" },
    });
    const stale = diagnose(
      variants,
      { variant: "stale", file: "a", other: "b" },
      { file: "a" },
      { severity: "error", data: { k: 1 } },
    );
    assert.equal(stale.message, "a differs from b");
    assert.equal(stale.severity, "error");
    assert.deepEqual(stale.data, { k: 1 });
    assert.equal(ruleMessage(variants, { variant: "missing", file: "x" }), "x is missing");
    assert.equal(ruleMessage(change, { tool: "t" }), "tool t was removed");
  });

  it("keeps a missing parameter visible, renders undefined like a template literal", () => {
    assert.equal(renderTemplate("{a} and {b:json}", {}), "{a} and {b:json}");
    assert.equal(
      renderTemplate("{a} {b:json}", { a: undefined, b: undefined }),
      "undefined undefined",
    );
    assert.equal(renderTemplate("{n} {ok} {v:json}", { n: 3, ok: false, v: [1] }), "3 false [1]");
    assert.throws(
      () => ruleMessage(variants, { variant: "gone", file: "x" } as never),
      /TEST_RULE_VARIANTS has no message gone/,
    );
  });

  it("treats braces around non-identifiers as text", () => {
    const text = 'expected {"tools":[…]} or { x }, got {kind}';
    assert.deepEqual(placeholders(text), ["kind"]);
    assert.equal(renderTemplate(text, { kind: "y" }), 'expected {"tools":[…]} or { x }, got y');
  });

  it("types parameters from the template", () => {
    // Compile-time checks: tsc fails if a line below stops being an error.
    // @ts-expect-error a missing parameter
    ruleMessage(single, { tool: "t" });
    // @ts-expect-error an unknown parameter
    ruleMessage(single, { tool: "t", name: 1, extra: 2 });
    // @ts-expect-error a variant's parameters belong to that variant
    ruleMessage(variants, { variant: "missing", file: "x", other: "y" });
    // @ts-expect-error an object is not a plain value
    ruleMessage(change, { tool: {} });
  });
});
