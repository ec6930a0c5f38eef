/**
 * How the turn rules treat a stable error code. STATE_CONFLICT asks for one reload and a
 * re-evaluation (C2); a code after which structured coaching stops for the turn is hard: the
 * session errors that end with the first-party start instruction (C14) and a service that is
 * unavailable. Every other code is recovered as its localized recovery text says (a reload, an
 * identical retry, corrected input) and is not judged here. A test keeps this list inside the
 * contract's error envelope.
 */
export const STATE_CONFLICT = "STATE_CONFLICT";

/** The retry code: the same request is still in flight; retry it identically (G6). */
export const REQUEST_IN_PROGRESS = "REQUEST_IN_PROGRESS";

/** Codes after which no structured call may follow in the turn. */
export const hardErrorCodes: ReadonlySet<string> = new Set([
  "SESSION_NOT_FOUND",
  "SESSION_EXPIRED",
  "SESSION_VERSION_UNAVAILABLE",
  "SESSION_SUBJECT_MISMATCH",
  "MAJOR_UPGRADE_REQUIRED",
  "TEMPORARILY_UNAVAILABLE",
]);
