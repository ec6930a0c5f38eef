import assert from "node:assert/strict";
import {
  mintCapability,
  mintOptionPayload,
  openOptionPayload,
} from "../../../runtime/capability/index.js";
import {
  assertRefused,
  IN_ONE_HOUR,
  keyring,
  NOW,
  OTHER_SESSION,
  schemaPattern,
  SESSION,
} from "./capability-fixtures.js";

describe("runtime/capability: opaque option payloads (C14, C11)", () => {
  const choice = { kind: "focus-skill", skillId: "algebra" };
  const payload = mintOptionPayload(keyring, {
    learningSessionId: SESSION,
    stateVersion: 4,
    policyRevision: 3,
    expiresAt: IN_ONE_HOUR,
    choice,
  });
  const expect = { learningSessionId: SESSION, stateVersion: 4, policyRevision: 3, now: NOW };

  it("matches the contract's OptionPayload pattern and opens to the choice (C14)", () => {
    assert.match(payload, schemaPattern("OptionPayload"));
    assert.doesNotMatch(payload, schemaPattern("Capability"));
    assert.deepEqual(openOptionPayload(keyring, payload, expect), choice);
    assert.ok(!payload.includes("algebra"));
  });

  it("is stale once the state version moved on (C14)", () => {
    assertRefused(
      () => openOptionPayload(keyring, payload, { ...expect, stateVersion: 5 }),
      "CAPABILITY_STALE",
      "state-version",
    );
  });

  it("is invalid for another session (C14, C11)", () => {
    assertRefused(
      () => openOptionPayload(keyring, payload, { ...expect, learningSessionId: OTHER_SESSION }),
      "CAPABILITY_INVALID",
      "session",
    );
  });

  it(
    "never crosses token families: an option relabelled cap1, or a cap1 " +
      "option-purpose token, is refused (C11)",
    () => {
      const relabelled = payload.replace(/^opt1\./, "cap1.");
      assertRefused(
        () => openOptionPayload(keyring, relabelled, expect),
        "CAPABILITY_INVALID",
        "malformed",
      );
      const capOption = mintCapability(keyring, {
        purpose: "option",
        learningSessionId: SESSION,
        policyRevision: 3,
        expiresAt: IN_ONE_HOUR,
        stateVersion: 4,
        data: choice,
      });
      assertRefused(
        () => openOptionPayload(keyring, capOption.replace(/^cap1\./, "opt1."), expect),
        "CAPABILITY_INVALID",
        "decrypt",
      );
    },
  );
});
