import assert from "node:assert/strict";
import fc from "fast-check";
import { createDecipheriv } from "node:crypto";
import {
  CapabilityError,
  mintCapability,
  openCapability,
} from "../../../runtime/capability/index.js";
import {
  assertRefused,
  gradingExpectation,
  gradingRequest,
  keyring,
} from "./capability-fixtures.js";

/** The sealed part of a token as bytes, and a way back to a token with the same prefix/kid. */
function split(token: string): { head: string; sealed: Buffer } {
  const cut = token.lastIndexOf(".");
  return { head: token.slice(0, cut + 1), sealed: Buffer.from(token.slice(cut + 1), "base64url") };
}

function refusedAsInvalid(token: string): boolean {
  try {
    openCapability(keyring, token, gradingExpectation);
    return false;
  } catch (error) {
    return error instanceof CapabilityError && error.code === "CAPABILITY_INVALID";
  }
}

describe("runtime/capability: tampering (C11, G5, G9)", () => {
  // Claims with a small payload make the token long enough for > 2000 distinct text-bit flips.
  const token = mintCapability(keyring, {
    ...gradingRequest,
    data: { goalId: "algebra.linear-equations", items: 5 },
  });

  it("the untouched token opens, so every refusal below is caused by the flip", () => {
    assert.ok(openCapability(keyring, token, gradingExpectation));
  });

  it("rejects every single-bit flip of the token text, all 8 bits of every character (C11)", () => {
    let flips = 0;
    for (let i = 0; i < token.length; i += 1)
      for (let bit = 0; bit < 8; bit += 1) {
        const flipped =
          token.slice(0, i) +
          String.fromCharCode(token.charCodeAt(i) ^ (1 << bit)) +
          token.slice(i + 1);
        assert.ok(refusedAsInvalid(flipped), `flip of bit ${bit} at char ${i} was accepted`);
        flips += 1;
      }
    assert.ok(flips >= 2000, `only ${flips} flips`);
  });

  it("rejects every single-bit flip of the sealed bytes (iv, ciphertext and tag) (C11)", () => {
    const { head, sealed } = split(token);
    for (let bit = 0; bit < sealed.length * 8; bit += 1) {
      const copy = Buffer.from(sealed);
      copy[bit >> 3] ^= 1 << (bit & 7);
      assert.ok(
        refusedAsInvalid(head + copy.toString("base64url")),
        `sealed bit ${bit} flip accepted`,
      );
    }
  });

  it("rejects arbitrary byte corruption, truncation and extension (property, C11)", () => {
    const { head, sealed } = split(token);
    fc.assert(
      fc.property(
        fc.nat({ max: sealed.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        fc.nat({ max: 40 }),
        fc.uint8Array({ maxLength: 24 }),
        (at, xor, cut, tail) => {
          const copy = Buffer.from(sealed);
          copy[at] ^= xor;
          const mutated = Buffer.concat([copy.subarray(0, copy.length - cut), tail]);
          return refusedAsInvalid(head + mutated.toString("base64url"));
        },
      ),
      { numRuns: 500 },
    );
  });

  it(
    "rejects a token whose tag is truncated to 4 bytes — the short-tag attack " +
      "Node 20 allows by default (C11)",
    () => {
      const { head, sealed } = split(token);
      const truncated = head + sealed.subarray(0, sealed.length - 12).toString("base64url");
      assertRefused(
        () => openCapability(keyring, truncated, gradingExpectation),
        "CAPABILITY_INVALID",
      );
      // Why the pinned tag length matters: a decipher without authTagLength accepts a 4-byte tag.
      const decipher = createDecipheriv("aes-256-gcm", Buffer.alloc(32), Buffer.alloc(12));
      assert.doesNotThrow(() => decipher.setAuthTag(Buffer.alloc(4)));
    },
  );

  it("rejects a token whose text is not the canonical base64url of its bytes (C11)", () => {
    // Only sealed lengths that are not a multiple of 3 leave unused trailing bits, so pad the
    // claims until the encoding has a non-canonical twin.
    let text = "";
    let head = "";
    let sealed: Buffer = Buffer.alloc(0);
    for (let pad = 0; text.length % 4 === 0; pad += 1) {
      ({ head, sealed } = split(
        mintCapability(keyring, { ...gradingRequest, data: { pad: "x".repeat(pad) } }),
      ));
      text = sealed.toString("base64url");
    }
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const twin = [...alphabet].find(
      (c) => c !== text.at(-1) && Buffer.from(text.slice(0, -1) + c, "base64url").equals(sealed),
    );
    assert.ok(twin, "a non-canonical twin decodes to the same bytes");
    assert.ok(openCapability(keyring, head + text, gradingExpectation));
    assertRefused(
      () => openCapability(keyring, head + text.slice(0, -1) + twin, gradingExpectation),
      "CAPABILITY_INVALID",
      "malformed",
    );
  });

  it("rejects ciphertext moved under another kid label (the kid is authenticated) (C11)", () => {
    const { sealed } = split(token);
    assertRefused(
      () =>
        openCapability(keyring, `cap1.k2026b.${sealed.toString("base64url")}`, gradingExpectation),
      "CAPABILITY_INVALID",
      "unknown-kid",
    );
  });
});
