import { readFile } from "node:fs/promises";
import path from "node:path";
import { ajvErrorMessage, createAjv } from "../../json-schema/ajv.js";
import { canonicalSha256 } from "../../contract-model/canonical.js";
import type { Locale } from "../i18n/index.js";

/** A text in every communication locale (the curriculum schema requires each). */
export type LocalizedText = { readonly [L in Locale]: string };

/** One learning goal as the curriculum file states it. */
export interface CurriculumGoal {
  goalId: string;
  title: LocalizedText;
  objective: LocalizedText;
  prerequisites: string[];
  recall: { prompt: LocalizedText; answer: LocalizedText };
  visualization?: { kind: "flow"; steps: string[] };
}

/** One skill: an ordered list of goals. */
export interface CurriculumSkill {
  skillId: string;
  title: LocalizedText;
  goals: CurriculumGoal[];
}

/** The curriculum file (curricula/*.curriculum.json, schema curricula/curriculum.schema.json). */
export interface CurriculumDocument {
  id: string;
  title: LocalizedText;
  skills: CurriculumSkill[];
}

/** A goal with its skill, as the domain uses it. */
export interface Goal extends CurriculumGoal {
  skillId: string;
}

/** A loaded, checked curriculum pinned by its content revision. */
export interface Curriculum {
  /** `curricula-sha256@<sha256 of the canonical JSON>`: sessions pin this (L8). */
  revision: string;
  document: CurriculumDocument;
  skills: readonly CurriculumSkill[];
  /** Every goal in curriculum order (skill order, then goal order). */
  goals: readonly Goal[];
  goal(goalId: string): Goal | undefined;
  skill(skillId: string): CurriculumSkill | undefined;
}

/** The pinned revision of a curriculum document. */
export function curriculumRevision(document: unknown): string {
  return `curricula-sha256@${canonicalSha256(document)}`;
}

/** Graph checks the schema cannot express: unique ids, known prerequisites, no cycles. */
function graphProblems(doc: CurriculumDocument): string[] {
  const problems: string[] = [];
  const goals = new Map<string, CurriculumGoal>();
  const skills = new Set<string>();
  for (const skill of doc.skills) {
    if (skills.has(skill.skillId)) problems.push(`duplicate skill ${skill.skillId}`);
    skills.add(skill.skillId);
    for (const goal of skill.goals) {
      if (goals.has(goal.goalId)) problems.push(`duplicate goal ${goal.goalId}`);
      goals.set(goal.goalId, goal);
    }
  }
  for (const goal of goals.values())
    for (const pre of goal.prerequisites)
      if (!goals.has(pre)) problems.push(`${goal.goalId}: unknown prerequisite ${pre}`);
  const state = new Map<string, "visiting" | "done">();
  const visit = (id: string, trail: string[]): void => {
    if (state.get(id) === "done") return;
    if (state.get(id) === "visiting") {
      problems.push(`prerequisite cycle: ${[...trail, id].join(" -> ")}`);
      return;
    }
    state.set(id, "visiting");
    for (const pre of goals.get(id)?.prerequisites ?? [])
      if (goals.has(pre)) visit(pre, [...trail, id]);
    state.set(id, "done");
  };
  for (const id of goals.keys()) visit(id, []);
  return problems;
}

/** Check a parsed curriculum document and index it. Throws an Error listing every problem. */
export function buildCurriculum(
  document: unknown,
  schema: object,
  source = "curriculum",
): Curriculum {
  const validate = createAjv().compile<CurriculumDocument>(schema);
  if (!validate(document))
    throw new Error(`${source}: ${(validate.errors ?? []).map(ajvErrorMessage).join("; ")}`);
  const problems = graphProblems(document);
  if (problems.length) throw new Error(`${source}: ${problems.join("; ")}`);
  const goals: Goal[] = document.skills.flatMap((s) =>
    s.goals.map((g) => ({ ...g, skillId: s.skillId })),
  );
  const byGoal = new Map(goals.map((g) => [g.goalId, g]));
  const bySkill = new Map(document.skills.map((s) => [s.skillId, s]));
  return {
    revision: curriculumRevision(document),
    document,
    skills: document.skills,
    goals,
    goal: (id) => byGoal.get(id),
    skill: (id) => bySkill.get(id),
  };
}

/** Load a curriculum file and validate it against `curriculum.schema.json` next to it. */
export async function loadCurriculum(file: string): Promise<Curriculum> {
  const schemaFile = path.join(path.dirname(file), "curriculum.schema.json");
  const [text, schemaText] = await Promise.all([
    readFile(file, "utf8"),
    readFile(schemaFile, "utf8"),
  ]);
  return buildCurriculum(JSON.parse(text), JSON.parse(schemaText) as object, path.basename(file));
}
