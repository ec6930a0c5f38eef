import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The edits a team makes to rename a tool and later remove the old one, exactly as
 * docs/evolution.md §2 and §4 describe them, applied to a checkout of this repository.
 */
const OLD = "complete_skillpilot_goal";
const NEW = "complete_skillpilot_active_goal";

async function edit(root: string, file: string, change: (text: string) => string) {
  const at = path.join(root, file);
  await writeFile(at, change(await readFile(at, "utf8")));
}

async function setVersion(root: string, version: string) {
  await edit(root, "schemas/plugin.json", (text) => {
    const plugin = JSON.parse(text) as { packageVersion: string };
    plugin.packageVersion = version;
    return `${JSON.stringify(plugin, null, 2)}\n`;
  });
}

/**
 * §2 steps 1–2 (the schemas only): `complete_skillpilot_active_goal`, a copy with renamed decision
 * words, and the old schema marked `supersededBy` and otherwise unchanged.
 */
export async function supersedeCompleteGoalSchemas(root: string): Promise<void> {
  const old = JSON.parse(await readFile(path.join(root, `schemas/tools/${OLD}.json`), "utf8"));
  const next = structuredClone(old);
  next.$id = String(old.$id).replace(new RegExp(`${OLD}$`), NEW);
  next.name = NEW;
  next.title = "Complete the active goal";
  next.input.properties.decision = {
    title: "ActiveGoalDecision",
    description: "mastered: the learner's work shows the goal; practiceMore: not yet.",
    enum: ["mastered", "practiceMore"],
  };
  await writeFile(
    path.join(root, `schemas/tools/${NEW}.json`),
    `${JSON.stringify(next, null, 2)}\n`,
  );
  await writeFile(
    path.join(root, `schemas/tools/${OLD}.json`),
    `${JSON.stringify({ ...old, supersededBy: NEW }, null, 2)}\n`,
  );
}

/**
 * §2: a replacement with renamed decision words, the old schema superseded, the replacement's
 * handler on the old domain rule, the adapter, and every place the name lives renamed; MINOR.
 */
export async function renameCompleteGoal(root: string): Promise<void> {
  await supersedeCompleteGoalSchemas(root);
  await setVersion(root, "1.2.0");
  await writeFile(
    path.join(root, "runtime/domain/handlers/complete-skillpilot-active-goal.handler.ts"),
    `import { writeHandler } from "../write-pipeline.js";
import { completeGoalRule } from "./complete-skillpilot-goal.handler.js";

/** Write: the completion decision for the active goal, in the revised decision words. */
export const completeSkillpilotActiveGoal = writeHandler({
  tool: "${NEW}",
  apply: (input, ctx) =>
    completeGoalRule.apply(
      { ...input, decision: input.decision === "mastered" ? "achieved" : "needsMorePractice" },
      ctx,
    ),
  respond: completeGoalRule.respond,
});
`,
  );
  await edit(root, "runtime/domain/handlers/index.ts", (text) =>
    text
      .replace(
        'import { completeSkillpilotGoal } from "./complete-skillpilot-goal.handler.js";',
        'import { completeSkillpilotActiveGoal } from "./complete-skillpilot-active-goal.handler.js";',
      )
      .replace(`${OLD}: completeSkillpilotGoal,`, `${NEW}: completeSkillpilotActiveGoal,`),
  );
  await edit(root, "runtime/domain/adapters/index.ts", (text) =>
    text.replace(
      "export const coachAdapters: CoachAdapters<CallContext> = {};",
      `export const coachAdapters: CoachAdapters<CallContext> = {
  ${OLD}: {
    input: (old) => ({
      ...old,
      decision: old.decision === "achieved" ? "mastered" : "practiceMore",
    }),
    output: (result) => result,
  },
};`,
    ),
  );
  for (const file of [
    "runtime/domain/full-context.ts",
    "runtime/i18n/catalogs/en.ts",
    "runtime/i18n/catalogs/de.ts",
    "skills/skillpilot-coach/SKILL.md",
    "release/submission/test-cases.json",
  ])
    await edit(root, file, (text) => text.replaceAll(OLD, NEW));
}

/**
 * §4: once no live release holds the old tool, its schema and adapter go, and its domain rule
 * moves into the replacement's handler (the compiler refuses the old name everywhere else).
 */
export async function removeOldCompleteGoal(root: string, version: string): Promise<void> {
  await rm(path.join(root, `schemas/tools/${OLD}.json`));
  await edit(root, "runtime/domain/adapters/index.ts", (text) =>
    text.replace(
      /export const coachAdapters: CoachAdapters<CallContext> = \{[\s\S]*?\n\};/,
      "export const coachAdapters: CoachAdapters<CallContext> = {};",
    ),
  );
  const handlers = "runtime/domain/handlers";
  const rule = await readFile(
    path.join(root, handlers, "complete-skillpilot-goal.handler.ts"),
    "utf8",
  );
  await writeFile(
    path.join(root, handlers, "complete-skillpilot-active-goal.handler.ts"),
    rule
      .replaceAll(`"${OLD}"`, `"${NEW}"`)
      .replace('input.decision === "achieved"', 'input.decision === "mastered"')
      .replace(
        "export const completeSkillpilotGoal = writeHandler(completeGoalRule);",
        "export const completeSkillpilotActiveGoal = writeHandler(completeGoalRule);",
      ),
  );
  await rm(path.join(root, handlers, "complete-skillpilot-goal.handler.ts"));
  await setVersion(root, version);
}
