import assert from "node:assert/strict";
import type { ContractLine } from "../../../generated/types.gen.js";
import { decideLaunch } from "../../../runtime/domain/line-policy.js";

const allowlist = { launchOrigins: ["https://skillpilot.com"] };
const successor = { contractMajor: 2, launchUrl: "https://skillpilot.com/v2/start" };
const line = (patch: object) =>
  ({
    contractMajor: 1,
    policyRevision: 4,
    displayName: "SkillPilot Coach",
    supportLifecycle: "CURRENT",
    publicationStatus: "DRAFT",
    newSessionPolicy: "ALLOW",
    successor: null,
    ...patch,
  }) as ContractLine;

describe("launch decision (L11)", () => {
  it("ALLOW mints under the line's policyRevision", () => {
    assert.deepEqual(decideLaunch(line({}), allowlist, false), {
      kind: "mint",
      policyRevision: 4,
      warned: false,
    });
  });
  it("WARN asks for acknowledgement, then mints; an unverified successor refuses", () => {
    assert.deepEqual(
      decideLaunch(line({ newSessionPolicy: "WARN", successor }), allowlist, false),
      { kind: "acknowledge", policyRevision: 4, successor },
    );
    assert.deepEqual(decideLaunch(line({ newSessionPolicy: "WARN", successor }), allowlist, true), {
      kind: "mint",
      policyRevision: 4,
      warned: true,
    });
    const offList = { contractMajor: 2, launchUrl: "https://skillpilot.com.evil.example/start" };
    assert.equal(
      decideLaunch(line({ newSessionPolicy: "WARN", successor: offList }), allowlist, true).kind,
      "refuse",
    );
  });
  it(
    "BLOCK refuses: MAJOR_UPGRADE_REQUIRED with a verified successor, " +
      "TEMPORARILY_UNAVAILABLE without",
    () => {
      assert.deepEqual(
        decideLaunch(line({ newSessionPolicy: "BLOCK", successor }), allowlist, true),
        { kind: "refuse", code: "MAJOR_UPGRADE_REQUIRED", successor },
      );
      assert.deepEqual(decideLaunch(line({ newSessionPolicy: "BLOCK" }), allowlist, true), {
        kind: "refuse",
        code: "TEMPORARILY_UNAVAILABLE",
      });
      const http = { contractMajor: 2, launchUrl: "http://skillpilot.com/v2/start" };
      assert.deepEqual(
        decideLaunch(line({ newSessionPolicy: "BLOCK", successor: http }), allowlist, true),
        { kind: "refuse", code: "TEMPORARILY_UNAVAILABLE" },
      );
    },
  );
  it("no readable line fails closed", () => {
    assert.deepEqual(decideLaunch(undefined, allowlist, true), {
      kind: "refuse",
      code: "TEMPORARILY_UNAVAILABLE",
    });
  });
});
