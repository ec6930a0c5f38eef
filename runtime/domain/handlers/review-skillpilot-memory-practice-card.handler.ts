import { CapabilityError } from "../../capability/index.js";
import { CoachError } from "../../errors.js";
import { writeHandler } from "../../mcp/write-pipeline.js";
import { deckIdAt, openPracticeDeck, practiceCard } from "../memory-practice.js";
import { recallItems } from "../recall-items.js";
import { reviewItem } from "../spaced-repetition.js";

/**
 * App-only write: the learner's self-grade for the current card of the deck sealed in the
 * practiceCapability. The grade moves that goal's recall schedule; the answer is a narrow
 * receipt and the next card. Idempotent through the pipeline: a retry with the same
 * clientRequestId gets the stored answer and grades nothing twice (G6).
 */
export const reviewSkillpilotMemoryPracticeCard = writeHandler({
  tool: "review_skillpilot_memory_practice_card",
  async authorize(input, { services, session, now }) {
    const snapshot = await services.store.loadLearner(session.learnerId);
    return openPracticeDeck({ services, session, now }, input.practiceCapability, snapshot);
  },
  apply(input, { snapshot, now, auth: deck }) {
    // Re-checked under the write lock: the deck must still be the one graded or a fresh one.
    const progress = snapshot.state.practice;
    let reviewed: number;
    if (progress?.deckId === deck.deckId) reviewed = progress.reviewed;
    else if (deck.deckId === deckIdAt(snapshot.stateVersion)) reviewed = 0;
    else throw new CapabilityError("CAPABILITY_STALE", "batch");
    if (reviewed >= deck.goalIds.length) throw new CoachError("NOT_ELIGIBLE");
    const goalId = deck.goalIds[reviewed];
    const schedule = recallItems(snapshot).find((item) => item.id === goalId)?.schedule;
    if (!schedule) throw new CoachError("NOT_ELIGIBLE");
    const state = {
      ...snapshot.state,
      recallSchedules: { ...(snapshot.state.recallSchedules ?? {}), [goalId]: reviewItem(schedule, input.grade, now) },
      practice: { deckId: deck.deckId, reviewed: reviewed + 1 },
    };
    return { state, value: { deck, reviewed: reviewed + 1 } };
  },
  respond: ({ services, session, receipt, value: { deck, reviewed } }) => ({
    receipt,
    remaining: deck.goalIds.length - reviewed,
    nextCard: reviewed < deck.goalIds.length ? practiceCard(services.curriculum, deck.goalIds[reviewed], reviewed + 1, session.locale) : null,
  }),
});
