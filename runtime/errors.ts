import type { ErrorCode } from "../generated/types.gen.js";

/**
 * A failure the caller can act on, named by a stable code from the contract's `ErrorCode`
 * enum. The MCP layer renders it as `{code, message, recovery}` in the session's locale;
 * anything thrown that is not a CoachError becomes INTERNAL_ERROR without detail.
 */
export class CoachError extends Error {
  override name = "CoachError";
  constructor(
    readonly code: ErrorCode,
    /** Values the localized text may interpolate (never shown raw, never logged). */
    readonly details: Readonly<Record<string, string | number>> = {},
  ) {
    super(code);
  }
}
