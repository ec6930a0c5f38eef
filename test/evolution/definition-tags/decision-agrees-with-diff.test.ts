import assert from "node:assert/strict";
import fc from "fast-check";
import { buildCase, composable, coverageMap } from "../../../checks/diff/coverage/coverage-map.js";
import { diffListings } from "../../../checks/diff/coverage/demonstrate.js";
import { classifyToolChange } from "../../../checks/diff/tool-change-class.js";
import { decideTag } from "../../../evolution/definition-tags/tag-decision.js";
import { toolDigest } from "../../../evolution/definition-tags/tool-digest.js";

type Tool = Record<string, unknown> & { name: string };
const entries = coverageMap().entries;

const toolsOf = (listing: unknown) => (listing as { tools: Tool[] }).tools;

// Issue #34 item 3: the definition-tag decision is made by Contract-Diff, never by hand. For random
// contract edits composed from the edit-space map, a host holding the old listing's tag calls each
// old tool: the server signals (serves the current definition) exactly where `skillpilot diff`
// finds nothing breaking for that tool, and otherwise never serves the current definition in its
// place (here nothing old is still served, so it refuses).
describe("definition tags: the decision table agrees with Contract-Diff on random contract edits", () => {
  it("1000 random compositions: signal exactly where the diff finds the tool unbroken", function () {
    this.timeout(180_000);
    let calls = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: entries.length - 1 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (indexes) => {
          const picked = indexes.map((i) => entries[i]);
          fc.pre(composable(picked));
          const { before, after } = buildCase(picked);
          const { verdict, result } = diffListings(before, after);
          const current = new Map(toolsOf(after).map((t) => [t.name, t]));
          const ids = picked.map((e) => e.edit.id).join(" + ");
          let anyRefused = false;
          for (const held of toolsOf(before)) {
            const now = current.get(held.name);
            const heldDigest = toolDigest(held);
            const decision = decideTag({
              mode: "on",
              knownTag: "sha256:held",
              currentTag: "sha256:current",
              heldDigest: () => ({ digest: heldDigest, live: true }),
              currentDigest: now ? toolDigest(now) : undefined,
              classify: () => (now ? classifyToolChange(held, now) : "incompatible"),
              serves: () => false,
            });
            calls++;
            const broken =
              !now ||
              result.findings.some(
                (f) => (f.tool === undefined || f.tool === held.name) && f.bump === "major",
              );
            assert.equal(
              decision.action,
              broken ? "reject" : "signal",
              `${held.name} under ${ids}: ${decision.reason}`,
            );
            anyRefused ||= decision.action === "reject";
          }
          // The listing as a whole: a held tag is refused for some tool iff the diff is breaking
          // (a breaking change the host could call into), tools only added never refused.
          assert.equal(anyRefused, verdict.breaking, `listing under ${ids}`);
        },
      ),
      { numRuns: 1000, seed: 20261203, endOnFailure: true },
    );
    assert.ok(calls >= 1000, `decisions checked: ${calls}`);
  });
});
