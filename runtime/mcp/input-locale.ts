import type { Caller } from "../auth/auth-runtime.js";
import { isOwnSession } from "../domain/session-gate.js";
import type { RuntimeServices } from "../services.js";
import type { Locale } from "../i18n/index.js";

/**
 * The contract's session handle (`$defs/LearningSessionId` in
 * schemas/envelopes/common.schema.json).
 */
const SESSION_ID = /^sps_[A-Za-z0-9_-]{22,64}$/;

/**
 * The locale of an answer refused before the session gate (INVALID_INPUT, INSUFFICIENT_SCOPE):
 * validation and the scope check run before the session is opened, so its locale is unknown there.
 * When a signed-in caller's refused arguments still carry a well-formed `learningSessionId` of a
 * session that is the caller's own, one lookup (on this error path only) recovers it (C3). Anything
 * else — no caller, no id, a malformed one, an unknown session, another learner's session (whose
 * language is not the caller's business, L14), a failing store — answers in English.
 */
export async function refusedInputLocale(
  services: RuntimeServices,
  args: unknown,
  caller: Caller | undefined,
): Promise<Locale> {
  const sid =
    typeof args === "object" && args !== null
      ? (args as { learningSessionId?: unknown }).learningSessionId
      : undefined;
  if (!caller || typeof sid !== "string" || !SESSION_ID.test(sid)) return "en";
  try {
    const session = await services.store.findSession(sid);
    return session && isOwnSession(session, caller) ? session.locale : "en";
  } catch {
    return "en";
  }
}
