import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import {
  escapeXml,
  renderGoalVisualization,
  renderNarrowGoalVisualization,
  type GoalVisualizationInput,
} from "../../../runtime/domain/goal-visualization.js";

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), "utf8");

const activeGoal: GoalVisualizationInput = {
  goalId: "algebra.linear-equations",
  title: "Solve linear equations with one unknown on both sides",
  skillTitle: "Algebra basics",
  prerequisites: [
    "Arithmetic with negative numbers",
    "Simplify terms",
    "Distributive law and brackets in practice exercises",
    "Fractions",
    "Variables",
    "Order of operations",
  ],
  status: "active",
  position: { index: 3, total: 5 },
};

const masteredDe: GoalVisualizationInput = {
  goalId: "zahlen.grundlagen",
  title: "Zahlen & Größen",
  skillTitle: "Grundlagen",
  prerequisites: [],
  status: "mastered",
  locale: "de",
};

const ELEMENTS = new Set(["svg", "title", "rect", "text", "path"]);
const ATTRIBUTES = new Set([
  "xmlns",
  "width",
  "height",
  "viewBox",
  "role",
  "aria-label",
  "font-family",
  "x",
  "y",
  "rx",
  "fill",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "d",
  "font-size",
  "font-weight",
]);

/**
 * Tokenize the markup and check it is a well-nested document made only of allowed elements and
 * attributes, with no raw `<`/`>` in text and nothing that can load or run anything.
 */
function assertSafeSvg(svg: string): void {
  const stack: string[] = [];
  const markup: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w:-]+="[^"<>]*")*)\s*(\/?)>/g;
  let last = 0;
  for (const m of svg.matchAll(tag)) {
    const between = svg.slice(last, m.index);
    assert.ok(!/[<>]/.test(between), `raw markup character in text: ${between}`);
    last = m.index! + m[0].length;
    markup.push(m[0]);
    const [, closing, name, attrs, selfClosing] = m;
    assert.ok(ELEMENTS.has(name!), `element <${name}> not allowed`);
    for (const [, attr] of attrs!.matchAll(/\s+([\w:-]+)="/g))
      assert.ok(ATTRIBUTES.has(attr!), `attribute ${attr} not allowed`);
    if (closing) assert.equal(stack.pop(), name);
    else if (!selfClosing) stack.push(name!);
  }
  assert.ok(!/[<>]/.test(svg.slice(last)), "trailing markup");
  assert.deepEqual(stack, [], "unclosed elements");
  assert.ok(svg.startsWith("<svg "));
  // Escaped text may mention anything; what matters is that no tag or attribute does. The
  // aria-label attribute carries the (escaped) title, so it is left out of this scan.
  const tags = markup.join("\n").replace(/ aria-label="[^"]*"/, "");
  assert.doesNotMatch(
    tags,
    /href|url\(|javascript:|<script|<style|<image|<foreignObject|\son\w+=/i,
  );
  // The namespace URI is an identifier, not a reference; it is the only URL in any tag.
  assert.deepEqual(tags.match(/https?:\/\/[^"\s]*/g), ["http://www.w3.org/2000/svg"]);
}

describe("runtime/domain/goal-visualization (issue #4, L9)", () => {
  it("renders an active goal with its prerequisites exactly as the golden file (L9)", () => {
    assert.equal(renderGoalVisualization(activeGoal), golden("goal-active-en.svg"));
  });

  it(
    "renders a mastered goal without prerequisites in German exactly as the " +
      "golden file (L9, C3)",
    () => {
      assert.equal(renderGoalVisualization(masteredDe), golden("goal-mastered-de.svg"));
    },
  );

  it(
    "is safe and small for both goldens: allowed elements only, no scripts, no " +
      "external references",
    () => {
      for (const input of [activeGoal, masteredDe]) {
        const svg = renderGoalVisualization(input);
        assertSafeSvg(svg);
        assert.ok(Buffer.byteLength(svg) < 4096, `${Buffer.byteLength(svg)} bytes`);
      }
    },
  );

  it("escapes an XSS-style title, skill and prerequisite so no markup survives (C15)", () => {
    const attack =
      `"><script>alert(1)</script><img src=x onerror=alert(2)><a ` + `href='javascript:alert(3)'>`;
    const svg = renderGoalVisualization({
      ...activeGoal,
      title: attack,
      skillTitle: `</text><image href="https://evil.example/x.png"/>`,
      prerequisites: [`<foreignObject><iframe src="https://evil.example"/></foreignObject>`],
    });
    assertSafeSvg(svg);
    assert.match(svg, /&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(svg, /&lt;\/text&gt;&lt;image/);
  });

  it("drops characters XML cannot carry, so the document always parses", () => {
    assert.equal(escapeXml("a\u0000b\u0008c\u001Fd\uD800e\uFFFEf\tg"), "abcdef\tg");
    assert.equal(escapeXml("😀 & 'x'"), "😀 &amp; &#39;x&#39;");
  });

  it("is deterministic and safe for arbitrary curriculum text (property)", () => {
    const anyText = fc.string({ unit: "binary", maxLength: 300 });
    fc.assert(
      fc.property(
        anyText,
        anyText,
        fc.array(anyText, { maxLength: 8 }),
        fc.constantFrom("locked", "available", "active", "mastered" as const),
        fc.constantFrom("en", "de" as const),
        (title, skillTitle, prerequisites, status, locale) => {
          const input: GoalVisualizationInput = {
            goalId: "g",
            title,
            skillTitle,
            prerequisites,
            status,
            locale,
          };
          const svg = renderGoalVisualization(input);
          assertSafeSvg(svg);
          assert.equal(renderGoalVisualization(structuredClone(input)), svg);
          assert.ok(Buffer.byteLength(svg) < 6144);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps every text of both layouts at 12 units or more, so each shown at its own width has text of at least 12 px (L9)", () => {
    const smallest = (svg: string) =>
      Math.min(...[...svg.matchAll(/<text [^>]*font-size="([\d.]+)"/g)].map((m) => Number(m[1])));
    const anyText = fc.string({ maxLength: 80 });
    fc.assert(
      fc.property(
        anyText,
        fc.array(anyText, { maxLength: 6 }),
        fc.constantFrom("locked", "available", "active", "mastered" as const),
        fc.constantFrom("en", "de" as const),
        fc.boolean(),
        (title, prerequisites, status, locale, positioned) => {
          const input: GoalVisualizationInput = {
            ...activeGoal,
            title,
            prerequisites,
            status,
            locale,
            ...(positioned ? { position: { index: 2, total: 9 } } : { position: undefined }),
          };
          for (const svg of [renderGoalVisualization(input), renderNarrowGoalVisualization(input)])
            assert.ok(smallest(svg) >= 12, `smallest text ${smallest(svg)} units`);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("shows at most four prerequisites and counts the rest (L9)", () => {
    const svg = renderGoalVisualization(activeGoal);
    assert.equal(svg.match(/<path /g)?.length, 4);
    assert.match(svg, />\+ 2 more</);
  });
});
