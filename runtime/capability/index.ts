// Public entry point of the capability module (C11): the write pipeline imports from here.
export {
  CapabilityError,
  type CapabilityErrorCode,
  type CapabilityFailureReason,
} from "./capability-error.js";
export { purposes, type Purpose, type Claims, type ClaimData } from "./claims.js";
export {
  keyringFromConfig,
  generateKeyringConfig,
  type Keyring,
  type KeyringConfig,
} from "./keyring.js";
export { MemoryReplayStore, type ReplayStore, type ReplayVerdict } from "./replay-store.js";
export { assertBound, type Binding, type Expectation, type MintRequest } from "./sealed-claims.js";
export {
  mintCapability,
  openCapability,
  spendCapability,
  verifyCapability,
} from "./capability.js";
export { mintOptionPayload, openOptionPayload } from "./option-payload.js";
