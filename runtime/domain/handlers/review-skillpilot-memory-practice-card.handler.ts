import { CoachError } from "../../errors.js";
import { writeHandler } from "../write-pipeline.js";
import { bindPracticeDeck, openPracticeDeck, practiceCard } from "../memory-practice.js";
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
  authorize: (input, scope) => openPracticeDeck(scope, input.practiceCapability),
  // Under the write lock: the deck must still be the one graded or a fresh one.
  bind: bindPracticeDeck,
  apply(input, { snapshot, now, auth: deck }) {
    const progress = snapshot.state.practice;
    // The deck being graded continues; a fresh one (bound to this state version) starts at 0.
    const reviewed = progress?.deckId === deck.deckId ? progress.reviewed : 0;
    if (reviewed >= deck.goalIds.length) throw new CoachError("NOT_ELIGIBLE");
    const goalId = deck.goalIds[reviewed];
    const schedule = recallItems(snapshot).find((item) => item.id === goalId)?.schedule;
    if (!schedule) throw new CoachError("NOT_ELIGIBLE");
    const state = {
      ...snapshot.state,
      recallSchedules: {
        ...(snapshot.state.recallSchedules ?? {}),
        [goalId]: reviewItem(schedule, input.grade, now),
      },
      practice: { deckId: deck.deckId, reviewed: reviewed + 1 },
    };
    return { state, value: { deck, reviewed: reviewed + 1 } };
  },
  respond: ({ deps, session, receipt, value: { deck, reviewed } }) => ({
    receipt,
    remaining: deck.goalIds.length - reviewed,
    nextCard:
      reviewed < deck.goalIds.length
        ? practiceCard(deps.curriculum, deck.goalIds[reviewed], reviewed + 1, session.locale)
        : null,
  }),
});
