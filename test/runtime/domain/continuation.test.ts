import assert from "node:assert/strict";
import path from "node:path";
import { loadCurriculum, type Curriculum } from "../../../runtime/domain/curriculum.js";
import { continuationAfter } from "../../../runtime/domain/continuation.js";
import { decideNextStep } from "../../../runtime/domain/full-context.js";
import type {
  GoalProgress,
  LearnerSnapshot,
  LearnerState,
} from "../../../runtime/domain/learner-state.js";
import { repoRoot } from "../support/runtime-fixture.js";

const NOW = new Date("2026-11-30T10:00:00.000Z");
const DAYS_AGO = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString();

function snapshot(
  state: Partial<LearnerState>,
  mastered: [string, string][] = [],
  stateVersion = 7,
): LearnerSnapshot {
  const progress = new Map<string, GoalProgress>(
    mastered.map(([goalId, at]) => [
      goalId,
      { goalId, status: "mastered", attempts: 1, masteredAt: at },
    ]),
  );
  return {
    learnerId: 1,
    stateVersion,
    state: { activeGoalId: null, focusSkillId: "git-basics", ...state },
    progress,
  };
}

describe("next step and continuation rules (C1, C10, C13)", () => {
  let curriculum: Curriculum;
  before(async () => {
    curriculum = await loadCurriculum(
      path.join(repoRoot, "curricula/skillpilot-basics.curriculum.json"),
    );
  });

  it(
    "puts the active goal first, then due recall, then an unlocked exam, then a " + "choice (C1)",
    () => {
      const gitBasics = curriculum.skill("git-basics")!.goals.map((g) => g.goalId);
      assert.equal(
        decideNextStep(
          curriculum,
          snapshot({ activeGoalId: "git-basics.staging" }, [
            ["git-basics.repository", DAYS_AGO(3)],
          ]),
          NOW,
        ).kind,
        "teach",
      );
      assert.deepEqual(
        decideNextStep(curriculum, snapshot({}, [["git-basics.repository", DAYS_AGO(3)]]), NOW),
        { kind: "recall", dueItems: 1 },
      );
      const allMastered = gitBasics.map((id): [string, string] => [id, DAYS_AGO(0)]);
      assert.deepEqual(decideNextStep(curriculum, snapshot({}, allMastered), NOW), {
        kind: "exam",
        skillId: "git-basics",
      });
      const examTaken = snapshot(
        {
          exams: {
            "git-basics": { score: 70, maxScore: 100, passed: true, recordedAt: NOW.toISOString() },
          },
        },
        allMastered,
      );
      assert.equal(decideNextStep(curriculum, examTaken, NOW).kind, "choose");
    },
  );

  it(
    "renders then teaches only a newly activated goal with a visualization, " +
      "bound to the new state version (C13)",
    () => {
      const after = snapshot({ activeGoalId: "git-basics.commit" }, [], 12);
      assert.deepEqual(continuationAfter(curriculum, null, after, NOW), {
        action: "renderGoalVisualizationThenTeachActiveGoal",
        consentRequired: false,
        toolCall: {
          name: "render_skillpilot_goal_visualization",
          arguments: { goalId: "git-basics.commit", expectedStateVersion: 12 },
        },
      });
      assert.deepEqual(continuationAfter(curriculum, "git-basics.commit", after, NOW), {
        action: "teachActiveGoal",
        consentRequired: false,
      });
      assert.deepEqual(
        continuationAfter(curriculum, null, snapshot({ activeGoalId: "git-basics.history" }), NOW),
        { action: "teachActiveGoal", consentRequired: false },
      );
    },
  );

  it(
    "asks for consent to the next step when no goal is active, and says when " +
      "the curriculum is complete (C13)",
    () => {
      assert.deepEqual(continuationAfter(curriculum, null, snapshot({ focusSkillId: null }), NOW), {
        action: "offerNextStep",
        consentRequired: true,
      });
      const everything = curriculum.goals.map((g): [string, string] => [g.goalId, DAYS_AGO(0)]);
      const exams = Object.fromEntries(
        curriculum.skills.map((s) => [
          s.skillId,
          { score: 90, maxScore: 100, passed: true, recordedAt: NOW.toISOString() },
        ]),
      );
      assert.deepEqual(continuationAfter(curriculum, null, snapshot({ exams }, everything), NOW), {
        action: "curriculumComplete",
        consentRequired: false,
      });
    },
  );
});
