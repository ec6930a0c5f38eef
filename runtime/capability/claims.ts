import { invalid } from "./capability-error.js";

/**
 * What a token authorizes. Each purpose has its own derived key and is bound as associated
 * data, so a token minted for one purpose never opens as another.
 */
export const purposes = ["batch", "grading", "assessment", "practice", "option"] as const;
export type Purpose = (typeof purposes)[number];

/**
 * Which piece of learner state a purpose is pinned to. A batch or practice deck outlives
 * single state versions (each graded card bumps the version), so it is pinned to its own id;
 * everything else is pinned to the state version it was issued for.
 */
export const purposeBinding: Readonly<Record<Purpose, "stateVersion" | "batchId">> = {
  batch: "batchId",
  grading: "batchId",
  practice: "batchId",
  assessment: "stateVersion",
  option: "stateVersion",
};

/** Small structured facts a token may carry (a chosen option, a bound goal, a maximum score). */
export type ClaimData = Record<string, string | number | boolean>;

/**
 * The sealed claims. Short keys keep tokens short; the JSON never leaves the server in clear.
 * `sfp` is a keyed fingerprint of the learning session id, never the id itself.
 */
export interface Claims {
  v: 1;
  /** purpose */
  p: Purpose;
  /** session fingerprint */
  sfp: string;
  /** state version (purposes bound to a state version) */
  sv?: number;
  /** batch or deck id (purposes bound to a batch) */
  bid?: string;
  /** line policyRevision at mint time */
  pr: number;
  /** expiry, epoch milliseconds */
  exp: number;
  /** unique token id, the replay key */
  jti: string;
  /** optional payload */
  d?: ClaimData;
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const ALLOWED_KEYS = new Set(["v", "p", "sfp", "sv", "bid", "pr", "exp", "jti", "d"]);

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

function isClaimData(value: unknown): value is ClaimData {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (v) =>
      typeof v === "string" ||
      typeof v === "boolean" ||
      (typeof v === "number" && Number.isFinite(v)),
  );
}

/**
 * The completeness check: every claim present, well typed, no extras, and the binding the
 * purpose requires. Runs on authenticated plaintext, so a failure here means a minting bug or
 * a format from another version — either way the token grants nothing.
 */
export function assertComplete(value: unknown): Claims {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid("incomplete");
  const c = value as Record<string, unknown>;
  if (Object.keys(c).some((key) => !ALLOWED_KEYS.has(key))) throw invalid("incomplete");
  const purpose = c.p as Purpose;
  const complete =
    c.v === 1 &&
    purposes.includes(purpose) &&
    isId(c.sfp) &&
    isCount(c.pr) &&
    isCount(c.exp) &&
    isId(c.jti) &&
    (c.d === undefined || isClaimData(c.d)) &&
    (purposeBinding[purpose] === "stateVersion"
      ? isCount(c.sv) && c.bid === undefined
      : isId(c.bid) && c.sv === undefined);
  if (!complete) throw invalid("incomplete");
  return c as unknown as Claims;
}
