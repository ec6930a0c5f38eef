import type { PracticeCard } from "../../generated/types.gen.js";
import { CapabilityError } from "../capability/index.js";
import type { Curriculum } from "./curriculum.js";
import type { LearnerSnapshot } from "./learner-state.js";
import { recallItems } from "./recall-items.js";
import { checkCapability, issueCapability, type CapabilityScope } from "./workflow-capabilities.js";
import type { Locale } from "../i18n/index.js";

/** At most this many cards per practice deck. */
export const maxDeckCards = 10;

/** A deck as its practice capability carries it: the deck id and the goals, in card order. */
export interface PracticeDeck {
  deckId: string;
  goalIds: string[];
}

/**
 * The deck a practice started at this state version gets. It is named after the version, so it
 * needs no write to exist (starting practice is a read) and any later write makes a fresh one.
 */
export function deckIdAt(stateVersion: number): string {
  return `pd${stateVersion}`;
}

/**
 * The deck for a learner: mastered goals, soonest due first (ties by id), at most `maxDeckCards`.
 * Goals of an open Verified Recall batch stay out: their answers are revealed only by the
 * answers step (C15).
 */
export function selectDeck(snapshot: LearnerSnapshot): PracticeDeck {
  const inBatch = new Set(snapshot.state.recallBatch?.goalIds ?? []);
  const goalIds = recallItems(snapshot)
    .filter((item) => !inBatch.has(item.id))
    .sort(
      (a, b) =>
        Date.parse(a.schedule.dueAt) - Date.parse(b.schedule.dueAt) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, maxDeckCards)
    .map((item) => item.id);
  return { deckId: deckIdAt(snapshot.stateVersion), goalIds };
}

/** One flashcard: the recall prompt in front, the reference answer on the back. */
export function practiceCard(
  curriculum: Curriculum,
  goalId: string,
  position: number,
  locale: Locale,
): PracticeCard {
  const goal = curriculum.goal(goalId)!;
  return { position, front: goal.recall.prompt[locale], back: goal.recall.answer[locale] };
}

/** The practice capability of a deck: the deck travels inside it, sealed. */
export function issuePracticeCapability(scope: CapabilityScope, deck: PracticeDeck): string {
  return issueCapability(
    scope,
    "practice",
    { batchId: deck.deckId },
    { goals: deck.goalIds.join(" ") },
  );
}

/**
 * Open a practice capability: every check but the deck binding, which `bindPracticeDeck` makes
 * against the state locked in the write transaction. Returns the deck the token carries.
 */
export function openPracticeDeck(scope: CapabilityScope, token: string): PracticeDeck {
  const claims = checkCapability(scope, "practice", token, "deferred");
  const goals = String(claims.d?.goals ?? "");
  return { deckId: claims.bid!, goalIds: goals ? goals.split(" ") : [] };
}

/**
 * The deck binding: a practice capability is current for the deck being graded or for a fresh one
 * started at the current state version. Anything else is stale.
 */
export function bindPracticeDeck(deck: PracticeDeck, snapshot: LearnerSnapshot): void {
  if (
    deck.deckId !== snapshot.state.practice?.deckId &&
    deck.deckId !== deckIdAt(snapshot.stateVersion)
  )
    throw new CapabilityError("CAPABILITY_STALE", "batch");
}
