import assert from "node:assert/strict";
import {
  generateKeyringConfig,
  keyringFromConfig,
  mintCapability,
  openCapability,
} from "../../../runtime/capability/index.js";
import { assertRefused, gradingExpectation, gradingRequest } from "./capability-fixtures.js";

describe("runtime/capability: key rotation (C11)", () => {
  const before = generateKeyringConfig("k1");
  const during = generateKeyringConfig("k2", before.keys); // k2 active, k1 still accepted
  const after = { activeKid: "k2", keys: { k2: during.keys.k2 } }; // k1 retired

  const oldToken = mintCapability(keyringFromConfig(before), gradingRequest);

  it("mints with the active kid and still opens tokens of an older accepted kid (C11)", () => {
    const ring = keyringFromConfig(during);
    const fresh = mintCapability(ring, gradingRequest);
    assert.ok(fresh.startsWith("cap1.k2."));
    assert.equal(openCapability(ring, oldToken, gradingExpectation).bid, "b1");
    assert.equal(openCapability(ring, fresh, gradingExpectation).bid, "b1");
  });

  it("rejects tokens of a retired kid as CAPABILITY_INVALID (C11)", () => {
    assertRefused(
      () => openCapability(keyringFromConfig(after), oldToken, gradingExpectation),
      "CAPABILITY_INVALID",
      "unknown-kid",
    );
  });

  it("rejects a token whose kid is known but whose key material differs (C11)", () => {
    const impostor = keyringFromConfig(generateKeyringConfig("k1"));
    assertRefused(
      () => openCapability(impostor, oldToken, gradingExpectation),
      "CAPABILITY_INVALID",
      "decrypt",
    );
  });

  it(
    "derives one key per purpose and kid, so purposes and kids never share key " + "bytes (C11)",
    () => {
      const ring = keyringFromConfig(during);
      const keys = ["k1", "k2"].flatMap((kid) =>
        ["cap1/grading", "cap1/batch", "opt1/option"].map((info) =>
          ring.derive(kid, info).toString("hex"),
        ),
      );
      assert.equal(new Set(keys).size, keys.length);
      assert.equal(ring.derive("k1", "cap1/grading").length, 32);
      assert.equal(ring.derive("k1", "cap1/grading"), ring.derive("k1", "cap1/grading")); // cached
    },
  );
});
