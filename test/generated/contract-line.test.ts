import assert from "node:assert/strict";
import type { ContractLine } from "../../generated/types.gen.js";
import { validateContractLine } from "../../generated/validators.gen.js";

const v1Line = {
  contractMajor: 1,
  policyRevision: 3,
  displayName: "SkillPilot Coach",
  supportLifecycle: "CURRENT",
  publicationStatus: "DRAFT",
  newSessionPolicy: "ALLOW",
  successor: null,
} as const;
const successor = { contractMajor: 2, launchUrl: "https://skillpilot.com/coach/start" };

describe("contract-line/v1 (L11)", () => {
  it(
    "accepts the V1 line of the spec: policyRevision 3, CURRENT, DRAFT, ALLOW, " + "successor null",
    () => {
      assert.equal(validateContractLine(v1Line), true, JSON.stringify(validateContractLine.errors));
    },
  );

  it("accepts WARN with a successor and BLOCK with or without one", () => {
    assert.equal(
      validateContractLine({
        ...v1Line,
        supportLifecycle: "DEPRECATED",
        newSessionPolicy: "WARN",
        successor,
      }),
      true,
    );
    assert.equal(validateContractLine({ ...v1Line, newSessionPolicy: "BLOCK" }), true);
    assert.equal(validateContractLine({ ...v1Line, newSessionPolicy: "BLOCK", successor }), true);
    assert.equal(
      validateContractLine({
        ...v1Line,
        supportLifecycle: "RETIRED",
        publicationStatus: "UNPUBLISHED",
        newSessionPolicy: "BLOCK",
        successor,
      }),
      true,
    );
  });

  it("rejects WARN with a null successor", () => {
    assert.equal(
      validateContractLine({ ...v1Line, newSessionPolicy: "WARN", successor: null }),
      false,
    );
  });

  it("rejects RETIRED + PUBLISHED", () => {
    assert.equal(
      validateContractLine({
        ...v1Line,
        supportLifecycle: "RETIRED",
        publicationStatus: "PUBLISHED",
        newSessionPolicy: "BLOCK",
      }),
      false,
    );
  });

  it("rejects RETIRED + UNPUBLISHED + ALLOW", () => {
    assert.equal(
      validateContractLine({
        ...v1Line,
        supportLifecycle: "RETIRED",
        publicationStatus: "UNPUBLISHED",
        newSessionPolicy: "ALLOW",
      }),
      false,
    );
  });

  it("rejects an extra property, a missing one, a wrong enum value and a long display name", () => {
    assert.equal(validateContractLine({ ...v1Line, note: "x" }), false);
    const { successor: _omit, ...noSuccessor } = v1Line;
    assert.equal(validateContractLine(noSuccessor), false);
    assert.equal(validateContractLine({ ...v1Line, supportLifecycle: "LEGACY" }), false);
    assert.equal(validateContractLine({ ...v1Line, displayName: "x".repeat(31) }), false);
    assert.equal(
      validateContractLine({
        ...v1Line,
        successor: { contractMajor: 2, launchUrl: "http://insecure.example" },
      }),
      false,
    );
  });

  it("carries the invariants into the TypeScript type (checked by tsc)", () => {
    const ok: ContractLine = { ...v1Line };
    const warn: ContractLine = { ...v1Line, newSessionPolicy: "WARN", successor };
    // @ts-expect-error WARN requires a non-null successor
    const warnWithoutSuccessor: ContractLine = {
      ...v1Line,
      newSessionPolicy: "WARN",
      successor: null,
    };
    // @ts-expect-error RETIRED requires UNPUBLISHED
    const retiredPublished: ContractLine = {
      ...v1Line,
      supportLifecycle: "RETIRED",
      publicationStatus: "PUBLISHED",
      newSessionPolicy: "BLOCK",
    };
    // @ts-expect-error RETIRED requires BLOCK
    const retiredAllow: ContractLine = {
      ...v1Line,
      supportLifecycle: "RETIRED",
      publicationStatus: "UNPUBLISHED",
      newSessionPolicy: "ALLOW",
    };
    // Same verdicts at run time, from the precompiled validator.
    assert.deepEqual(
      [ok, warn, warnWithoutSuccessor, retiredPublished, retiredAllow].map((l) =>
        validateContractLine(l),
      ),
      [true, true, false, false, false],
    );
  });
});
