import type { MessageLocale } from "../error-table.js";
import type { RuntimeServices } from "../services.js";

/**
 * The contract's session handle (`$defs/LearningSessionId` in
 * schemas/envelopes/common.schema.json).
 */
const SESSION_ID = /^sps_[A-Za-z0-9_-]{22,64}$/;

/**
 * The locale for an INVALID_INPUT answer. Validation runs before the session is opened, so the
 * session's locale is unknown there; when the refused arguments still carry a well-formed
 * `learningSessionId` of a known session, one lookup (on this error path only) recovers it (C3).
 * Anything else — no id, a malformed one, an unknown session, a failing store — answers in English.
 */
export async function refusedInputLocale(
  services: RuntimeServices,
  args: unknown,
): Promise<MessageLocale> {
  const sid =
    typeof args === "object" && args !== null
      ? (args as { learningSessionId?: unknown }).learningSessionId
      : undefined;
  if (typeof sid !== "string" || !SESSION_ID.test(sid)) return "en";
  try {
    return (await services.store.findSession(sid))?.locale ?? "en";
  } catch {
    return "en";
  }
}
