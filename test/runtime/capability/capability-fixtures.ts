import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  CapabilityError,
  generateKeyringConfig,
  keyringFromConfig,
  type CapabilityErrorCode,
  type CapabilityFailureReason,
  type Expectation,
  type MintRequest,
} from "../../../runtime/capability/index.js";

/** A real keyring with fresh random key material, like a first start would create. */
export const config = generateKeyringConfig("k2026a");
export const keyring = keyringFromConfig(config);

export const SESSION = "sps_AAAAAAAAAAAAAAAAAAAAAAAA";
export const OTHER_SESSION = "sps_BBBBBBBBBBBBBBBBBBBBBBBB";
export const NOW = new Date("2026-11-30T10:00:00.000Z");
export const IN_ONE_HOUR = new Date(NOW.getTime() + 3_600_000);

/** A grading capability for batch `b1` under policy revision 3. */
export const gradingRequest: MintRequest = {
  purpose: "grading",
  learningSessionId: SESSION,
  policyRevision: 3,
  expiresAt: IN_ONE_HOUR,
  batchId: "b1",
};

/** The server's view when that grading capability comes back. */
export const gradingExpectation: Expectation = {
  purpose: "grading",
  learningSessionId: SESSION,
  policyRevision: 3,
  now: NOW,
  batchId: "b1",
};

/** The `$defs` patterns of the contract, read from the schema itself. */
export function schemaPattern(name: "Capability" | "OptionPayload"): RegExp {
  const common = JSON.parse(
    readFileSync(new URL("../../../schemas/envelopes/common.schema.json", import.meta.url), "utf8"),
  );
  return new RegExp(common.$defs[name].pattern);
}

/** Assert that `run` is refused with a given code (and, when given, reason). */
export function assertRefused(
  run: () => unknown,
  code: CapabilityErrorCode,
  reason?: CapabilityFailureReason,
): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof CapabilityError, `expected CapabilityError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (reason) assert.equal(error.reason, reason);
    return true;
  });
}
