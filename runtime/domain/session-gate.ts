import type { ErrorCode } from "../../generated/types.gen.js";
import { CoachError } from "../errors.js";
import type { Caller } from "../auth/auth-runtime.js";
import type { CallContext, OpenSession } from "./call-context.js";
import { type CallFacts, reported, sessionFacts } from "./call-facts.js";
import type { SessionRecord } from "./ports/coach-store.js";

/** Whether `session` was launched for the signed-in `caller` (issuer and subject, L14). */
export function isOwnSession(session: SessionRecord, caller: Caller | undefined): boolean {
  const owner = session.subject;
  return (
    caller !== undefined &&
    owner !== undefined &&
    owner.sub === caller.subject &&
    owner.issuer === caller.issuer
  );
}

/** A refusal of the gate, carrying what it learned about the session for the log line. */
const refused = (code: ErrorCode, facts: CallFacts = {}) => reported(new CoachError(code), facts);

/**
 * Step 2 of every call: the session exists, belongs to the signed-in caller, is not expired, and
 * its pinned contract major, workflow version and curriculum revision are still served, and the
 * line's `policyRevision` is still the one it launched under (L11); otherwise fail closed (L8).
 * A refusal carries the facts known by then (the session once found, its language once it is the
 * caller's own); a session that passes gives them itself (`sessionFacts`).
 */
export async function openSession(
  learningSessionId: string,
  ctx: CallContext,
): Promise<OpenSession> {
  const { store, curriculum } = ctx.deps;
  // The contract major of the endpoint the call came in on: a session of another major is not
  // served here (each major pins its own tools, line and revisions).
  const { contractMajor, workflowVersion, line } = ctx.contract;
  const session = await store.findSession(learningSessionId);
  // Sessions are per provider lane: on another lane's endpoint the session does not exist.
  if (!session || (session.lane ?? "openai") !== (ctx.lane ?? "openai"))
    throw refused("SESSION_NOT_FOUND");
  // The session id is not a credential: only the signed-in learner it was launched for may use it
  // (L14). Checked before anything else about the session is revealed.
  if (!isOwnSession(session, ctx.caller)) throw refused("SESSION_SUBJECT_MISMATCH", { session });
  const known = sessionFacts(session);
  if (session.expiresAt <= ctx.now.getTime()) throw refused("SESSION_EXPIRED", known);
  if (
    session.contractMajor !== contractMajor ||
    session.workflowVersion !== workflowVersion ||
    session.curriculumRevision !== curriculum.revision
  )
    throw refused("SESSION_VERSION_UNAVAILABLE", known);
  // A line bump retires every session launched under another policy; a new launch is the way on.
  // Equality, not "not older": a revision that went back (refused by the floor anyway) never
  // revives a session a bump retired, and a session from a higher revision is not served under a
  // lower one (L11).
  const inForce = line.current();
  if (!inForce) throw refused("TEMPORARILY_UNAVAILABLE", known);
  line.applied(inForce.policyRevision);
  if (inForce.policyRevision !== session.policyRevision)
    throw refused("SESSION_VERSION_UNAVAILABLE", known);
  ctx.session = { ...session, policyRevisionInForce: inForce.policyRevision };
  return ctx.session;
}
