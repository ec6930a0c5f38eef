import assert from "node:assert/strict";
import {
  assertBound,
  mintCapability,
  openCapability,
  purposes,
  keyringFromConfig,
  generateKeyringConfig,
} from "../../../runtime/capability/index.js";
import { seal } from "../../../runtime/capability/token-codec.js";
import {
  assertRefused,
  gradingExpectation,
  gradingRequest,
  keyring,
  NOW,
  OTHER_SESSION,
  schemaPattern,
  SESSION,
} from "./capability-fixtures.js";

describe("runtime/capability: mint and open (C11)", () => {
  it(
    "mints a token that matches the contract's Capability pattern and opens to " +
      "its claims (C11)",
    () => {
      const token = mintCapability(keyring, { ...gradingRequest, data: { items: 3 } });
      assert.match(token, schemaPattern("Capability"));
      assert.ok(token.startsWith(`cap1.${keyring.activeKid}.`));
      const claims = openCapability(keyring, token, gradingExpectation);
      assert.equal(claims.p, "grading");
      assert.equal(claims.bid, "b1");
      assert.equal(claims.pr, 3);
      assert.equal(claims.exp, gradingRequest.expiresAt.getTime());
      assert.deepEqual(claims.d, { items: 3 });
    },
  );

  it("never carries the session id, in clear or inside the claims (C11, C15)", () => {
    const token = mintCapability(keyring, gradingRequest);
    assert.ok(!token.includes(SESSION.slice(4)));
    const claims = openCapability(keyring, token, gradingExpectation);
    assert.ok(!JSON.stringify(claims).includes(SESSION));
    assert.match(claims.sfp, /^[A-Za-z0-9_-]{22}$/);
  });

  it("gives every mint a unique jti and unique bytes (C11)", () => {
    const tokens = Array.from({ length: 50 }, () => mintCapability(keyring, gradingRequest));
    assert.equal(new Set(tokens).size, 50);
    const jtis = tokens.map((t) => openCapability(keyring, t, gradingExpectation).jti);
    assert.equal(new Set(jtis).size, 50);
  });

  it("rejects a capability from another session as CAPABILITY_INVALID (C11, G5)", () => {
    const token = mintCapability(keyring, gradingRequest);
    assertRefused(
      () =>
        openCapability(keyring, token, { ...gradingExpectation, learningSessionId: OTHER_SESSION }),
      "CAPABILITY_INVALID",
      "session",
    );
  });

  it("rejects a capability presented for another purpose (C11, G5)", () => {
    const token = mintCapability(keyring, gradingRequest);
    for (const purpose of purposes.filter((p) => p !== "grading"))
      assertRefused(
        () => openCapability(keyring, token, { ...gradingExpectation, purpose, stateVersion: 1 }),
        "CAPABILITY_INVALID",
        "decrypt",
      );
  });

  it("is stale from the expiry instant on, valid one millisecond before (C11)", () => {
    const token = mintCapability(keyring, gradingRequest);
    const exp = gradingRequest.expiresAt.getTime();
    assert.ok(openCapability(keyring, token, { ...gradingExpectation, now: new Date(exp - 1) }));
    assertRefused(
      () => openCapability(keyring, token, { ...gradingExpectation, now: new Date(exp) }),
      "CAPABILITY_STALE",
      "expired",
    );
  });

  it("rejects a capability minted under an older policyRevision as stale (C11, L11)", () => {
    const token = mintCapability(keyring, { ...gradingRequest, policyRevision: 2 });
    assertRefused(
      () => openCapability(keyring, token, gradingExpectation),
      "CAPABILITY_STALE",
      "policy-revision",
    );
  });

  it("rejects a grading capability for another batch as stale (C11, C12)", () => {
    const token = mintCapability(keyring, gradingRequest);
    assertRefused(
      () => openCapability(keyring, token, { ...gradingExpectation, batchId: "b2" }),
      "CAPABILITY_STALE",
      "batch",
    );
  });

  it(
    "can leave the binding to a later check against locked state, keeping every " +
      "other check now (C11, C12)",
    () => {
      const token = mintCapability(keyring, gradingRequest);
      const { batchId: _unused, ...withoutBinding } = gradingExpectation;
      assert.throws(
        () => openCapability(keyring, token, withoutBinding),
        TypeError,
        "a binding is never skipped by accident",
      );
      const claims = openCapability(keyring, token, { ...withoutBinding, deferBinding: true });
      assert.doesNotThrow(() => assertBound(claims, { batchId: "b1" }));
      assertRefused(() => assertBound(claims, { batchId: "b2" }), "CAPABILITY_STALE", "batch");
      // Deferring the binding defers nothing else.
      assertRefused(
        () =>
          openCapability(keyring, token, {
            ...withoutBinding,
            deferBinding: true,
            policyRevision: 4,
          }),
        "CAPABILITY_STALE",
        "policy-revision",
      );
      assertRefused(
        () =>
          openCapability(keyring, token, {
            ...withoutBinding,
            deferBinding: true,
            learningSessionId: OTHER_SESSION,
          }),
        "CAPABILITY_INVALID",
        "session",
      );
    },
  );

  it("binds an assessment capability to the state version (C7, C11)", () => {
    const token = mintCapability(keyring, {
      purpose: "assessment",
      learningSessionId: SESSION,
      policyRevision: 3,
      expiresAt: gradingRequest.expiresAt,
      stateVersion: 7,
      data: { skillId: "algebra", maxScore: 20 },
    });
    const expect = {
      purpose: "assessment" as const,
      learningSessionId: SESSION,
      policyRevision: 3,
      now: NOW,
    };
    assert.deepEqual(openCapability(keyring, token, { ...expect, stateVersion: 7 }).d, {
      skillId: "algebra",
      maxScore: 20,
    });
    assertRefused(
      () => openCapability(keyring, token, { ...expect, stateVersion: 8 }),
      "CAPABILITY_STALE",
      "state-version",
    );
  });

  it("checks in order: an expired token from another session is invalid, not stale (C11)", () => {
    const token = mintCapability(keyring, gradingRequest);
    assertRefused(
      () =>
        openCapability(keyring, token, {
          ...gradingExpectation,
          learningSessionId: OTHER_SESSION,
          now: new Date(gradingRequest.expiresAt.getTime() + 1),
        }),
      "CAPABILITY_INVALID",
    );
  });

  it("rejects authentic but incomplete claims (C11 completeness)", () => {
    const claims = {
      v: 1,
      p: "grading",
      sfp: "x".repeat(22),
      bid: "b1",
      pr: 3,
      exp: NOW.getTime() + 1000,
    };
    const noJti = seal(keyring, "cap1", "grading", Buffer.from(JSON.stringify(claims)));
    assertRefused(
      () => openCapability(keyring, noJti, gradingExpectation),
      "CAPABILITY_INVALID",
      "incomplete",
    );
    const notJson = seal(keyring, "cap1", "grading", Buffer.from("not json"));
    assertRefused(
      () => openCapability(keyring, notJson, gradingExpectation),
      "CAPABILITY_INVALID",
      "incomplete",
    );
    const extra = seal(
      keyring,
      "cap1",
      "grading",
      Buffer.from(JSON.stringify({ ...claims, jti: "j", x: 1 })),
    );
    assertRefused(
      () => openCapability(keyring, extra, gradingExpectation),
      "CAPABILITY_INVALID",
      "incomplete",
    );
    const wrongBinding = seal(
      keyring,
      "cap1",
      "grading",
      Buffer.from(JSON.stringify({ ...claims, jti: "j", bid: undefined, sv: 1 })),
    );
    assertRefused(
      () => openCapability(keyring, wrongBinding, gradingExpectation),
      "CAPABILITY_INVALID",
      "incomplete",
    );
  });

  it("refuses to mint without the binding its purpose needs, or beyond the size limit", () => {
    assert.throws(
      () => mintCapability(keyring, { ...gradingRequest, batchId: undefined }),
      TypeError,
    );
    assert.throws(() => mintCapability(keyring, { ...gradingRequest, stateVersion: 1 }), TypeError);
    assert.throws(
      () => mintCapability(keyring, { ...gradingRequest, data: { blob: "x".repeat(4000) } }),
      RangeError,
    );
    assert.throws(
      () => openCapability(keyring, "cap1.k.x", { ...gradingExpectation, batchId: undefined }),
      TypeError,
    );
  });

  it(
    "rejects non-strings and shapes outside the pattern without throwing " + "anything else (G9)",
    () => {
      for (const bad of [
        undefined,
        42,
        "",
        "cap1",
        "cap1..abc",
        `cap2.${keyring.activeKid}.${"A".repeat(40)}`,
      ])
        assertRefused(
          () => openCapability(keyring, bad as string, gradingExpectation),
          "CAPABILITY_INVALID",
          "malformed",
        );
    },
  );

  it("rejects keyring configurations that cannot be used safely", () => {
    const good = generateKeyringConfig("k1");
    assert.throws(() => keyringFromConfig({ ...good, activeKid: "k9" }), /active key id/);
    assert.throws(
      () => keyringFromConfig({ activeKid: "k1", keys: { k1: "c2hvcnQ" } }),
      /32 bytes/,
    );
    assert.throws(
      () => keyringFromConfig({ activeKid: "bad kid", keys: { "bad kid": good.keys.k1 } }),
      /invalid key id/,
    );
  });
});
