import { CoachError } from "../errors.js";
import type { Caller } from "../auth/auth-runtime.js";
import type { CallContext } from "../services.js";
import type { SessionRecord } from "../store/store.js";
import { primaryTarget } from "./launch.js";

/**
 * A session that passed the gate. `policyRevision` is the line's revision when it launched;
 * `policyRevisionInForce` the line's revision this call runs under, read once by the gate so that
 * every capability the call checks or issues uses the same one.
 */
export interface OpenSession extends SessionRecord {
  readonly policyRevisionInForce: number;
}

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

/**
 * Step 2 of every call: the session exists, belongs to the signed-in caller, is not expired, and
 * its pinned contract major, workflow version and curriculum revision are still served, and the
 * line's `policyRevision` is still the one it launched under (L11); otherwise fail closed (L8).
 */
export async function openSession(
  learningSessionId: string,
  ctx: CallContext,
): Promise<OpenSession> {
  const { store, curriculum } = ctx.services;
  // The contract major of the endpoint the call came in on: a session of another major is not
  // served here (each major pins its own tools, line and revisions).
  const { contractMajor, workflowVersion, line } = ctx.contract ?? primaryTarget(ctx.services);
  const session = await store.findSession(learningSessionId);
  // Sessions are per provider lane: on another lane's endpoint the session does not exist.
  if (!session || (session.lane ?? "openai") !== (ctx.lane ?? "openai"))
    throw new CoachError("SESSION_NOT_FOUND");
  ctx.facts.session = session;
  // The session id is not a credential: only the signed-in learner it was launched for may use it
  // (L14). Checked before anything else about the session is revealed.
  if (!isOwnSession(session, ctx.caller)) throw new CoachError("SESSION_SUBJECT_MISMATCH");
  ctx.facts.locale = session.locale;
  if (session.expiresAt <= ctx.now.getTime()) throw new CoachError("SESSION_EXPIRED");
  if (
    session.contractMajor !== contractMajor ||
    session.workflowVersion !== workflowVersion ||
    session.curriculumRevision !== curriculum.revision
  )
    throw new CoachError("SESSION_VERSION_UNAVAILABLE");
  // A line bump retires every session launched under another policy; a new launch is the way on.
  // Equality, not "not older": a revision that went back (refused by the floor anyway) never
  // revives a session a bump retired, and a session from a higher revision is not served under a
  // lower one (L11).
  const inForce = line.current();
  if (!inForce) throw new CoachError("TEMPORARILY_UNAVAILABLE");
  line.applied(inForce.policyRevision);
  if (inForce.policyRevision !== session.policyRevision)
    throw new CoachError("SESSION_VERSION_UNAVAILABLE");
  ctx.session = { ...session, policyRevisionInForce: inForce.policyRevision };
  return ctx.session;
}
