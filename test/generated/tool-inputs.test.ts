import assert from "node:assert/strict";
import { toolNames, type ToolName } from "../../generated/handlers.gen.js";
import { toolDescriptors } from "../../generated/tools.gen.js";
import * as validators from "../../generated/validators.gen.js";
import { pascalCase } from "../../generator/emit/emitted-file.js";

// One valid call per tool (G9: valid input), built from per-field samples.
const capability = `cap1.k1.${"A".repeat(43)}`;
const samples: Record<string, unknown> = {
  learningSessionId: `sps_${"a".repeat(26)}`,
  expectedStateVersion: 4,
  clientRequestId: "6f1c2f5e-9f6e-4d7a-9c6b-1f2e3d4c5b6a",
  option: `opt1.k1.${"B".repeat(43)}`,
  decision: "achieved",
  assessmentCapability: capability,
  score: 80,
  batchCapability: capability,
  gradingCapability: capability,
  assessments: [{ passed: true }, { passed: false }],
  goalId: "fractions.add-like",
  practiceCapability: capability,
  grade: "good",
};

const validatorFor = (name: ToolName) =>
  (validators as unknown as Record<string, ((d: unknown) => boolean) & { errors?: unknown }>)[
    `validate${pascalCase(name)}Input`
  ]!;

function validCall(name: ToolName): Record<string, unknown> {
  const descriptor = toolDescriptors.find((d) => d.name === name)!;
  const required = (descriptor.inputSchema.required as string[]) ?? [];
  const call: Record<string, unknown> = {};
  for (const key of required) {
    assert.ok(key in samples, `no sample value for ${name}.${key}: add one to this test`);
    call[key] = samples[key];
  }
  return call;
}

describe("tool input validators (C5, G9)", () => {
  for (const name of toolNames) {
    describe(name, () => {
      it("accepts a valid call", () => {
        const validate = validatorFor(name);
        assert.equal(validate(validCall(name)), true, JSON.stringify(validate.errors));
      });

      it("rejects an unknown property before anything else (C5)", () => {
        assert.equal(
          validatorFor(name)({ ...validCall(name), note: "the learner said the answer is 42" }),
          false,
        );
      });

      it("rejects a missing required property and a wrong type", () => {
        const call = validCall(name);
        const [first] = Object.keys(call);
        const { [first!]: _dropped, ...missing } = call;
        assert.equal(validatorFor(name)(missing), false);
        assert.equal(validatorFor(name)({ ...call, learningSessionId: 42 }), false);
      });

      it("rejects adversarial session handles (injection, wrong prefix, oversize)", () => {
        const v = validatorFor(name);
        for (const bad of [
          "sps_' OR 1=1 --xxxxxxxxxxxxxx",
          `usr_${"a".repeat(26)}`,
          `sps_${"a".repeat(65)}`,
          `sps_${"a".repeat(21)}`,
          "",
        ])
          assert.equal(v({ ...validCall(name), learningSessionId: bad }), false, bad);
      });
    });
  }

  it("has one descriptor, validator pair and sample for each of the ten V1 tools", () => {
    assert.equal(toolNames.length, 10);
    assert.deepEqual(
      toolDescriptors.map((d) => d.name),
      [...toolNames],
    );
  });

  it("rejects free text smuggled into structured write fields (G11)", () => {
    assert.equal(
      validatorFor("complete_skillpilot_goal")({
        ...validCall("complete_skillpilot_goal"),
        decision: "achieved because the learner explained it well",
      }),
      false,
    );
    assert.equal(
      validatorFor("record_skillpilot_verified_recall_results")({
        ...validCall("record_skillpilot_verified_recall_results"),
        assessments: [{ passed: true, answer: "photosynthesis" }],
      }),
      false,
    );
    assert.equal(
      validatorFor("record_skillpilot_assessment_score")({
        ...validCall("record_skillpilot_assessment_score"),
        score: 79.5,
      }),
      false,
    );
    assert.equal(
      validatorFor("choose_skillpilot_option")({
        ...validCall("choose_skillpilot_option"),
        option: "the second one please",
      }),
      false,
    );
  });
});
