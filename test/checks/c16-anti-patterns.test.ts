import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { lintContract } from "../../checks/lint/lint-contract.js";
import { skillLint } from "../../checks/skill-lint/skill-lint.js";
import { parseContractDoc } from "../../contract-model/contract-doc.js";
import { repoRoot } from "../support/temp-project.js";

const dir = path.join(repoRoot, "test/fixtures/c16");
const read = async (name: string) =>
  parseContractDoc(JSON.parse(await readFile(path.join(dir, name), "utf8")), name, [])!;
/** The findings of `rule` in a fixture, as [pointer, message start]. */
async function findings(name: string, rule: string): Promise<string[]> {
  return lintContract(await read(name))
    .filter((d) => d.ruleId === rule)
    .map((d) => `${d.location.pointer} ${d.message.split(":")[0]}`);
}

describe("C16's anti-patterns as rules: valid, invalid and adversarial fixtures (C16, C5, G7, G9, G11)", () => {
  it("GATE_UNRECEIPTED_WRITE: a write's output proves its save (receipt, successor state), G7", async () => {
    assert.deepEqual(await findings("unreceipted-write.valid.json", "GATE_UNRECEIPTED_WRITE"), []);
    assert.deepEqual(await findings("unreceipted-write.invalid.json", "GATE_UNRECEIPTED_WRITE"), [
      "/tools/0/outputSchema complete_goal writes, but its output requires no receipt and no successor state",
    ]);
    // An optional receipt, a receipt-like title, a non-idempotent "start" that proves nothing.
    assert.deepEqual(
      (await findings("unreceipted-write.adversarial.json", "GATE_UNRECEIPTED_WRITE")).map((f) =>
        f.replace(/ writes.*/, ""),
      ),
      [
        "/tools/0/outputSchema complete_goal",
        "/tools/1/outputSchema record_score",
        "/tools/2/outputSchema start_round",
      ],
    );
  });

  it("GATE_EXACT_STRING_MATCH: no enum of phrases, no input echoing a prose output (C16, G8)", async () => {
    assert.deepEqual(await findings("exact-string.valid.json", "GATE_EXACT_STRING_MATCH"), []);
    assert.deepEqual(await findings("exact-string.invalid.json", "GATE_EXACT_STRING_MATCH"), [
      "/tools/1/inputSchema/properties/label choose_option",
      "/tools/2/inputSchema/properties/decision complete_goal",
    ]);
    // A phrase with a no-break space, a CJK const; an opaque `label` token is no echo of prose.
    assert.deepEqual(await findings("exact-string.adversarial.json", "GATE_EXACT_STRING_MATCH"), [
      "/tools/0/inputSchema/properties/decision complete_goal",
      "/tools/1/inputSchema/properties/grade grade_card",
    ]);
  });

  it("GATE_FREE_TEXT_INPUT judges what a field's language can hold, not prose samples (C5, G11)", async () => {
    assert.deepEqual(await findings("free-text-language.valid.json", "GATE_FREE_TEXT_INPUT"), []);
    // A long pattern of letters and spaces no sample matches; an unbounded list of short words.
    assert.deepEqual(await findings("free-text-language.invalid.json", "GATE_FREE_TEXT_INPUT"), [
      "/tools/0/inputSchema/properties/note record",
      "/tools/0/inputSchema/properties/words record",
    ]);
    // No-break spaces, tabs, Han only, prose in a URL path, a prose branch, unique short words.
    assert.deepEqual(
      (await findings("free-text-language.adversarial.json", "GATE_FREE_TEXT_INPUT")).map(
        (f) => f.split(" ")[0],
      ),
      ["branches", "han", "link", "nbsp", "tabbed", "tokens"].map(
        (p) => `/tools/0/inputSchema/properties/${p}`,
      ),
    );
  });

  it("SKILL_PROMPT_ONLY_RULE: a SKILL.md safety rule needs a schema or backend guard (C16)", async () => {
    const contract = await read("prompt-only/contract.json");
    const lint = async (variant: string) =>
      (await skillLint(path.join(dir, "prompt-only", variant), variant, contract)).diagnostics.map(
        (d) => `${d.ruleId} ${d.location.line} ${d.message.split(":")[0]}`,
      );
    assert.deepEqual(await lint("valid"), []);
    assert.deepEqual(await lint("invalid"), [
      "SKILL_PROMPT_ONLY_RULE 8 the rule on note exists only in the skill",
      "SKILL_PROMPT_ONLY_RULE 9 the rule that send_reminder runs once exists only in the skill",
    ]);
    // A rule inside a code fence is an example; a German rule counts; an idempotent tool is guarded.
    assert.deepEqual(await lint("adversarial"), [
      "SKILL_PROMPT_ONLY_RULE 12 the rule on note exists only in the skill",
    ]);
  });
});
