import type { CoachToolName, ContextOption, FullContext } from "../../generated/types.gen.js";
import { mintOptionPayload } from "../capability/index.js";
import type { RuntimeServices } from "../services.js";
import type { SessionRecord } from "../store/store.js";
import type { Curriculum } from "./curriculum.js";
import { instructionFor } from "./instructions.js";
import { masteredGoals, type LearnerSnapshot } from "./learner-state.js";
import { frontier, skillsWithFrontier } from "./learning-rules.js";

/** At most this many options per context: a small set the learner can take in (C14). */
export const maxOptions = 4;
const OPTION_LIFETIME_MS = 3600_000;

/** The structured choice an option payload seals. */
export type OptionChoice = { kind: "focusSkill"; skillId: string } | { kind: "nextGoal"; goalId: string };

/** The choices open in this state: next goals in the focus skill, else focus skills. */
export function openChoices(curriculum: Curriculum, snapshot: LearnerSnapshot): OptionChoice[] {
  if (snapshot.state.activeGoalId) return [];
  const mastered = masteredGoals(snapshot);
  const inFocus = frontier(curriculum, mastered).filter((g) => g.skillId === snapshot.state.focusSkillId);
  if (inFocus.length > 0) return inFocus.slice(0, maxOptions).map((g) => ({ kind: "nextGoal", goalId: g.goalId }));
  return skillsWithFrontier(curriculum, mastered)
    .slice(0, maxOptions)
    .map((skillId) => ({ kind: "focusSkill", skillId }));
}

function optionLabel(curriculum: Curriculum, choice: OptionChoice, locale: "en" | "de"): string {
  return choice.kind === "focusSkill" ? curriculum.skill(choice.skillId)!.title[locale] : curriculum.goal(choice.goalId)!.title[locale];
}

/**
 * The complete, authoritative context of a session at the snapshot's state version (C2, L8):
 * one required action with its instruction, the current step, fresh options when a choice is
 * open, and the tools allowed now. Goal and skill ids are public curriculum keys; nothing here
 * names the learner (C15).
 */
export function buildFullContext(services: RuntimeServices, session: SessionRecord, snapshot: LearnerSnapshot, now: Date): FullContext {
  const { curriculum, identity } = services;
  const locale = session.locale;
  const base = {
    contractMajor: 1 as const,
    learningSessionId: session.sessionId,
    stateVersion: snapshot.stateVersion,
    stateSchemaVersion: identity.stateSchemaVersion,
    workflowVersion: session.workflowVersion,
    curriculumRevision: session.curriculumRevision,
    communicationLocale: locale,
    extensions: {},
  };
  const active = snapshot.state.activeGoalId ? curriculum.goal(snapshot.state.activeGoalId) : undefined;
  if (active) {
    const visual = active.visualization !== undefined;
    const allowedActions: CoachToolName[] = ["complete_skillpilot_goal"];
    if (visual) allowedActions.push("render_skillpilot_goal_visualization");
    return {
      ...base,
      requiredAction: "teachActiveGoal",
      instruction: instructionFor("teachActiveGoal", locale, active.title[locale]),
      currentStep: {
        kind: "goal",
        goalId: active.goalId,
        skillId: active.skillId,
        title: active.title[locale],
        objective: active.objective[locale],
        goalVisualization: visual,
      },
      allowedActions,
    };
  }
  const choices = openChoices(curriculum, snapshot);
  if (choices.length === 0) {
    return {
      ...base,
      requiredAction: "celebrateCompletion",
      instruction: instructionFor("celebrateCompletion", locale),
      currentStep: { kind: "complete", title: curriculum.document.title[locale] },
      allowedActions: [],
    };
  }
  const expiresAt = new Date(now.getTime() + OPTION_LIFETIME_MS);
  const options: ContextOption[] = choices.map((choice) => ({
    kind: choice.kind,
    label: optionLabel(curriculum, choice, locale),
    payload: mintOptionPayload(services.keyring, {
      learningSessionId: session.sessionId,
      stateVersion: snapshot.stateVersion,
      policyRevision: session.policyRevision,
      expiresAt,
      choice,
    }),
  }));
  return {
    ...base,
    requiredAction: "chooseOption",
    instruction: instructionFor("chooseOption", locale),
    currentStep: { kind: "choice", title: curriculum.document.title[locale] },
    options: options as FullContext["options"],
    allowedActions: ["choose_skillpilot_option"],
  };
}
