import type { ToolHandler } from "../../../generated/handlers.gen.js";
import type { CallContext } from "../call-context.js";
import { issuePracticeCapability, practiceCard, selectDeck } from "../memory-practice.js";
import { readHandler } from "../read-pipeline.js";

/** `_meta` key the memory-practice widget reads (docs/ui-widgets.md). */
const memoryPracticeMetaKey = "skillpilot/memoryPractice";

/**
 * Read, UI-bound (L9): open a flashcard deck of mastered goals. The cards and the
 * practiceCapability go to the widget in `_meta`; the model only learns how many cards there are
 * (C9). Nothing is written: the deck is sealed into its capability.
 */
export const startSkillpilotMemoryPractice: ToolHandler<
  "start_skillpilot_memory_practice",
  CallContext
> = readHandler((_input, scope, ctx) => {
  const { deps, session, snapshot } = scope;
  const deck = selectDeck(snapshot);
  const cards = deck.goalIds.map((goalId, i) =>
    practiceCard(deps.curriculum, goalId, i + 1, session.locale),
  );
  ctx.widgetMeta = {
    [memoryPracticeMetaKey]: {
      cards,
      practiceCapability: issuePracticeCapability(scope, deck),
      learningSessionId: session.sessionId,
    },
  };
  return { cardCount: cards.length };
});
