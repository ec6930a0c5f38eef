import type { CoachAdapters } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../call-context.js";

/**
 * One adapter per superseded tool of the contract (`supersededBy` in its schema): how an old call
 * becomes a call of the replacement and how the replacement's result becomes the old result. The
 * generated `CoachAdapters` interface names what each one must map; the runtime validates both
 * sides. The contract supersedes no tool today.
 */
export const coachAdapters: CoachAdapters<CallContext> = {};
