import type { SessionRecord } from "./ports/coach-store.js";
import type { Locale } from "../i18n/index.js";

/**
 * What a call's log line tells about its domain work (L13). The session gate and the pipelines
 * return them with their result: on the handler's output, or on what it threw, so a refused call
 * still names its session.
 */
export interface CallFacts {
  /** The session the call named, once found (for the log line; its owner is not yet checked). */
  session?: SessionRecord;
  /**
   * The language of the answer: the session's, set only once the gate found the session is the
   * caller's own, so a refusal never tells another learner anything about it (C3, L14).
   */
  locale?: Locale;
  stateVersion?: number;
  clientRequestId?: string;
}

const factsKey = Symbol("callFacts");

/**
 * `value` (a handler's output, or what a call threw) carrying the facts of its call. The generated
 * `CoachHandlers` interface fixes what a handler returns, so the facts ride along as a hidden
 * property: invisible to JSON, the schema validators and deep equality, so the answer's bytes
 * stay the tool's own.
 */
export function reported<T>(value: T, facts: CallFacts): T {
  if (typeof value === "object" && value !== null && Object.isExtensible(value))
    Object.defineProperty(value, factsKey, { value: facts, configurable: true });
  return value;
}

/** The facts a handler's output or a thrown value carries; none when it carries none. */
export function factsOf(value: unknown): CallFacts {
  const facts =
    typeof value === "object" && value !== null
      ? (value as { [factsKey]?: CallFacts })[factsKey]
      : undefined;
  return facts ?? {};
}

/** `outer` over `inner`, keeping what `inner` knew where `outer` knows nothing. */
export function mergeFacts(inner: CallFacts, outer: CallFacts): CallFacts {
  const merged: CallFacts = { ...inner };
  for (const [key, value] of Object.entries(outer) as [keyof CallFacts, never][])
    if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * Run `work`; anything it throws leaves carrying `facts` as they are when it throws (merged over
 * the facts it already carries, e.g. the session gate's).
 */
export async function reportingFailure<T>(facts: CallFacts, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw reported(error, mergeFacts(factsOf(error), facts));
  }
}

/** The facts of a session that passed the gate: it, and the caller's own language. */
export function sessionFacts(session: SessionRecord): CallFacts {
  return { session, locale: session.locale };
}
