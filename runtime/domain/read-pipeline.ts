import type { CallContext, HandlerDeps, OpenSession } from "./call-context.js";
import { reported, reportingFailure, sessionFacts } from "./call-facts.js";
import type { LearnerSnapshot } from "./learner-state.js";
import { openSession } from "./session-gate.js";

/** What a read sees: the gated session and the learner as of one state version. */
export interface ReadView {
  deps: HandlerDeps;
  session: OpenSession;
  snapshot: LearnerSnapshot;
  now: Date;
}

/**
 * Turn a read into a handler of the generated interface: the session gate (step 2), the learner
 * read once, then `read`. Its output, or what it throws, carries the call's facts (the session,
 * the state version read) for the log line.
 */
export function readHandler<I extends { learningSessionId: string }, O>(
  read: (input: I, view: ReadView, ctx: CallContext) => O | Promise<O>,
): (input: I, ctx: CallContext) => Promise<O> {
  return async (input, ctx) => {
    const session = await openSession(input.learningSessionId, ctx);
    const facts = sessionFacts(session);
    return reportingFailure(facts, async () => {
      const snapshot = await ctx.deps.store.loadLearner(session.learnerId);
      facts.stateVersion = snapshot.stateVersion;
      const output = await read(input, { deps: ctx.deps, session, snapshot, now: ctx.now }, ctx);
      return reported(output, facts);
    });
  };
}
