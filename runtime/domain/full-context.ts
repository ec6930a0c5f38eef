import type { CoachToolName, ContextOption, FullContext } from "../../generated/types.gen.js";
import type { HandlerDeps, OpenSession } from "./call-context.js";
import type { Curriculum, Goal } from "./curriculum.js";
import { examMaxScore, pendingExam } from "./exams.js";
import { instructionFor } from "./instructions.js";
import { masteredGoals, type LearnerSnapshot } from "./learner-state.js";
import { frontier, skillsWithFrontier } from "./learning-rules.js";
import { dueRecallItems } from "./recall-items.js";
import { issueCapability } from "./workflow-capabilities.js";
import { optionPayload } from "./option-payloads.js";
import type { Locale } from "../i18n/index.js";

/** At most this many options per context: a small set the learner can take in (C14). */
export const maxOptions = 4;

/** The structured choice an option payload seals. */
export type OptionChoice =
  | { kind: "focusSkill"; skillId: string }
  | { kind: "nextGoal"; goalId: string };

/** The choices open in this state: next goals in the focus skill, else focus skills. */
export function openChoices(curriculum: Curriculum, snapshot: LearnerSnapshot): OptionChoice[] {
  if (snapshot.state.activeGoalId) return [];
  const mastered = masteredGoals(snapshot);
  const inFocus = frontier(curriculum, mastered).filter(
    (g) => g.skillId === snapshot.state.focusSkillId,
  );
  if (inFocus.length > 0)
    return inFocus.slice(0, maxOptions).map((g) => ({ kind: "nextGoal", goalId: g.goalId }));
  return skillsWithFrontier(curriculum, mastered)
    .slice(0, maxOptions)
    .map((skillId) => ({ kind: "focusSkill", skillId }));
}

function optionLabel(curriculum: Curriculum, choice: OptionChoice, locale: Locale): string {
  return choice.kind === "focusSkill"
    ? curriculum.skill(choice.skillId)!.title[locale]
    : curriculum.goal(choice.goalId)!.title[locale];
}

/** What the learner does next, decided by the backend alone (C1). */
export type NextStep =
  | { kind: "teach"; goal: Goal }
  | { kind: "recall"; dueItems: number }
  | { kind: "exam"; skillId: string }
  | { kind: "choose"; choices: OptionChoice[] }
  | { kind: "complete" };

/**
 * The next step in precedence order: the active goal; then a checkpoint — an open or due
 * Verified Recall batch, then an unlocked exam; then a choice; else the curriculum is complete.
 */
export function decideNextStep(
  curriculum: Curriculum,
  snapshot: LearnerSnapshot,
  now: Date,
): NextStep {
  const active = snapshot.state.activeGoalId
    ? curriculum.goal(snapshot.state.activeGoalId)
    : undefined;
  if (active) return { kind: "teach", goal: active };
  const batch = snapshot.state.recallBatch;
  const dueItems = batch ? batch.goalIds.length : dueRecallItems(snapshot, now).length;
  if (dueItems > 0) return { kind: "recall", dueItems };
  const mastered = masteredGoals(snapshot);
  const exam = pendingExam(curriculum, snapshot.state, mastered);
  if (exam) return { kind: "exam", skillId: exam };
  const choices = openChoices(curriculum, snapshot);
  return choices.length > 0 ? { kind: "choose", choices } : { kind: "complete" };
}

/**
 * The complete, authoritative context of a session at the snapshot's state version (C2, L8):
 * one required action with its instruction, the current step, fresh options when a choice is
 * open, capabilities for the step, and the tools allowed now. Goal and skill ids are public
 * curriculum keys; nothing here names the learner (C15).
 */
export function buildFullContext(
  deps: HandlerDeps,
  session: OpenSession,
  snapshot: LearnerSnapshot,
  now: Date,
): FullContext {
  const { curriculum } = deps;
  const locale = session.locale;
  const base = {
    contractMajor: 1 as const,
    learningSessionId: session.sessionId,
    stateVersion: snapshot.stateVersion,
    stateSchemaVersion: deps.stateSchemaVersion,
    workflowVersion: session.workflowVersion,
    curriculumRevision: session.curriculumRevision,
    communicationLocale: locale,
    extensions: {},
  };
  // Memory practice is optional and read-only: open whenever there is something to practise.
  const practice: CoachToolName[] =
    masteredGoals(snapshot).size > 0 ? ["start_skillpilot_memory_practice"] : [];
  const step = decideNextStep(curriculum, snapshot, now);
  switch (step.kind) {
    case "teach": {
      const active = step.goal;
      const visual = active.visualization !== undefined;
      const allowedActions: CoachToolName[] = ["complete_skillpilot_goal"];
      if (visual) allowedActions.push("render_skillpilot_goal_visualization");
      // Due recall never interrupts teaching, but the learner may ask for it.
      if (snapshot.state.recallBatch || dueRecallItems(snapshot, now).length > 0)
        allowedActions.push("start_skillpilot_verified_recall");
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
        allowedActions: [...allowedActions, ...practice],
      };
    }
    case "recall":
      return {
        ...base,
        requiredAction: "offerVerifiedRecall",
        instruction: instructionFor("offerVerifiedRecall", locale),
        currentStep: { kind: "recall", dueItems: step.dueItems },
        allowedActions: ["start_skillpilot_verified_recall", ...practice],
      };
    case "exam": {
      const title = curriculum.skill(step.skillId)!.title[locale];
      const assessmentCapability = issueCapability(
        { deps, session, now },
        "assessment",
        { stateVersion: snapshot.stateVersion },
        {
          skillId: step.skillId,
          maxScore: examMaxScore,
        },
      );
      return {
        ...base,
        requiredAction: "takeAssessment",
        instruction: instructionFor("takeAssessment", locale, title),
        currentStep: {
          kind: "assessment",
          skillId: step.skillId,
          title,
          maxScore: examMaxScore,
          assessmentCapability,
        },
        allowedActions: ["record_skillpilot_assessment_score", ...practice],
      };
    }
    case "complete":
      return {
        ...base,
        requiredAction: "celebrateCompletion",
        instruction: instructionFor("celebrateCompletion", locale),
        currentStep: { kind: "complete", title: curriculum.document.title[locale] },
        allowedActions: practice,
      };
    case "choose":
      break;
  }
  const policyRevision = session.policyRevisionInForce;
  const options: ContextOption[] = step.choices.map((choice) => ({
    kind: choice.kind,
    label: optionLabel(curriculum, choice, locale),
    payload: optionPayload(deps.keyring, {
      learningSessionId: session.sessionId,
      stateVersion: snapshot.stateVersion,
      policyRevision,
      now,
      choice,
    }),
  }));
  return {
    ...base,
    requiredAction: "chooseOption",
    instruction: instructionFor("chooseOption", locale),
    currentStep: { kind: "choice", title: curriculum.document.title[locale] },
    options: options as FullContext["options"],
    allowedActions: ["choose_skillpilot_option", ...practice],
  };
}
