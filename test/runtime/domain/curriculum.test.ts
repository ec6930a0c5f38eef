import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  buildCurriculum,
  curriculumRevision,
  loadCurriculum,
} from "../../../runtime/domain/curriculum.js";
import { repoRoot } from "../support/runtime-fixture.js";

const file = path.join(repoRoot, "curricula/skillpilot-basics.curriculum.json");

describe("shipped curriculum", () => {
  it(
    "has at least 12 goals over at least 3 skills with prerequisites, texts in " + "en and de",
    async () => {
      const c = await loadCurriculum(file);
      assert.ok(c.goals.length >= 12);
      assert.ok(c.skills.length >= 3);
      assert.ok(c.goals.filter((g) => g.prerequisites.length > 0).length >= 6);
      assert.ok(
        c.goals.some((g) => g.prerequisites.some((p) => c.goal(p)!.skillId !== g.skillId)),
        "a cross-skill prerequisite",
      );
      for (const g of c.goals)
        for (const t of [g.title, g.objective, g.recall.prompt, g.recall.answer])
          assert.ok(t.en && t.de, g.goalId);
      assert.ok(c.goals.some((g) => g.visualization) && c.goals.some((g) => !g.visualization));
    },
  );

  it(
    "is pinned by curricula-sha256@ of its canonical JSON, independent of key " + "order (L8)",
    async () => {
      const c = await loadCurriculum(file);
      assert.match(c.revision, /^curricula-sha256@[0-9a-f]{64}$/);
      const doc = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
      const reordered = Object.fromEntries(Object.entries(doc).reverse());
      assert.equal(curriculumRevision(reordered), c.revision);
      assert.notEqual(curriculumRevision({ ...doc, id: "other" }), c.revision);
    },
  );

  it("refuses unknown prerequisites and cycles", async () => {
    const schema = JSON.parse(
      await readFile(path.join(repoRoot, "curricula/curriculum.schema.json"), "utf8"),
    ) as object;
    const text = { en: "t", de: "t" };
    const goal = (goalId: string, prerequisites: string[]) => ({
      goalId,
      title: text,
      objective: text,
      prerequisites,
      recall: { prompt: text, answer: text },
    });
    const doc = (goals: object[]) => ({
      id: "c",
      title: text,
      skills: [{ skillId: "s", title: text, goals }],
    });
    assert.throws(
      () => buildCurriculum(doc([goal("a", ["nope"])]), schema),
      /unknown prerequisite nope/,
    );
    assert.throws(
      () => buildCurriculum(doc([goal("a", ["b"]), goal("b", ["a"])]), schema),
      /prerequisite cycle/,
    );
    assert.throws(
      () => buildCurriculum({ ...doc([goal("a", [])]), extra: 1 }, schema),
      /unknown property/,
    );
  });
});
