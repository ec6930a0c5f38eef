/**
 * The image of one learning goal (issue #4, L9): a small, deterministic SVG built from
 * curriculum facts. The renderer tool puts it in `_meta` for the goal-visualization widget.
 * Safe by construction: every text is escaped, there are no scripts, event attributes,
 * links, images, styles or any other reference to something outside the document.
 */

import { catalogs, defaultLocale, fillPlaceholders, type Locale } from "../i18n/index.js";

/** Progress state of the goal for this learner (same values as `$defs/GoalSummary.status`). */
export type GoalStatus = "locked" | "available" | "active" | "mastered";

/** What the image shows. Deliberately independent of the curriculum file format. */
export interface GoalVisualizationInput {
  /** Public curriculum key; identifies the image for the caller, it is not drawn. */
  goalId: string;
  title: string;
  skillTitle: string;
  /** Titles of the goals this one builds on, in curriculum order. */
  prerequisites: readonly string[];
  status: GoalStatus;
  /** Where the goal sits in its skill: goal `index` (1-based) of `total`. */
  position?: { index: number; total: number };
  locale?: Locale;
}

const WIDTH = 560;
const BOX_HEIGHT = 40;
const ROW = 52;
const TOP = 64;
const MAX_PREREQUISITES = 4;
const FONT = "system-ui, -apple-system, Segoe UI, sans-serif";

const palette: Readonly<Record<GoalStatus, { fill: string; stroke: string; badge: string }>> = {
  locked: { fill: "#f3f4f6", stroke: "#9ca3af", badge: "#6b7280" },
  available: { fill: "#eff6ff", stroke: "#3b82f6", badge: "#1d4ed8" },
  active: { fill: "#fff7ed", stroke: "#f97316", badge: "#c2410c" },
  mastered: { fill: "#ecfdf5", stroke: "#10b981", badge: "#047857" },
};

/** The image's labels in the input's language, the placeholders filled by the renderers. */
function labelsOf(input: GoalVisualizationInput) {
  const l = catalogs[input.locale ?? defaultLocale].goalImage;
  return {
    ...l,
    more: (count: number) => fillPlaceholders(l.more, { count }),
    position: (index: number, total: number) => fillPlaceholders(l.position, { index, total }),
  };
}

/** Characters XML 1.0 forbids, plus lone surrogates: dropped so the document always parses. */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these code points are what it removes
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escape text for element content and attribute values alike. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Collapse whitespace and cut to `max` code points with an ellipsis. */
function fit(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/** Break a title into at most two lines of `width` code points, preferring word boundaries. */
function twoLines(text: string, width: number): string[] {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  let first = "";
  while (words.length && [...`${first} ${words[0]}`.trim()].length <= width)
    first = `${first} ${words.shift()}`.trim();
  if (!first) return [fit(text, width)];
  return words.length ? [first, fit(words.join(" "), width)] : [first];
}

function text(x: number, y: number, content: string, attrs = ""): string {
  return `<text x="${x}" y="${y}"${attrs}>${escapeXml(content)}</text>`;
}

/** The accessible name of the image: the goal and its status. */
function imageLabel(input: GoalVisualizationInput): string {
  return `${fit(input.title, 120)} — ${labelsOf(input).status[input.status]}`;
}

const NARROW_WIDTH = 300;

/**
 * The same facts laid out for a narrow frame (a phone, a side panel): one column, the goal first,
 * then what it builds on, every text at least 12 units in a 300-unit-wide picture, so a 320 px
 * frame shows it at 12 px or more instead of shrinking the wide picture to half its size.
 */
export function renderNarrowGoalVisualization(input: GoalVisualizationInput): string {
  const l = labelsOf(input);
  const colors = palette[input.status];
  const shown = input.prerequisites.slice(0, MAX_PREREQUISITES);
  const hidden = input.prerequisites.length - shown.length;
  const x = 12;
  const inner = NARROW_WIDTH - 2 * x;
  const parts: string[] = [
    text(x, 26, fit(input.skillTitle, 32), ` font-size="15" font-weight="700" fill="#111827"`),
  ];
  let y = 34;
  if (input.position) {
    parts.push(
      text(
        x,
        50,
        l.position(input.position.index, input.position.total),
        ` font-size="12" fill="#4b5563"`,
      ),
    );
    y = 58;
  }
  const titleLines = twoLines(input.title, 30);
  parts.push(
    `<rect x="${x}" y="${y}" width="${inner}" height="76" rx="10" ` +
      `fill="${colors.fill}" stroke="${colors.stroke}" stroke-width="2"/>`,
    ...titleLines.map((line, i) =>
      text(
        x + 14,
        y + (titleLines.length === 1 ? 34 : 26) + i * 18,
        line,
        ` font-size="14" font-weight="600" fill="#111827"`,
      ),
    ),
    text(
      x + 14,
      y + 64,
      l.status[input.status],
      ` font-size="12" font-weight="600" fill="${colors.badge}"`,
    ),
  );
  y += 76 + 28;
  parts.push(text(x, y, l.buildsOn, ` font-size="12" fill="#4b5563"`));
  y += 10;
  if (shown.length === 0) {
    parts.push(
      `<rect x="${x}" y="${y}" width="${inner}" height="36" rx="8" ` +
        `fill="#ffffff" stroke="#d1d5db" stroke-dasharray="4 3"/>`,
      text(x + 12, y + 23, l.none, ` font-size="12" fill="#4b5563"`),
    );
    y += 44;
  }
  for (const title of shown) {
    parts.push(
      `<rect x="${x}" y="${y}" width="${inner}" height="36" rx="8" fill="#ecfdf5" stroke="#10b981"/>`,
      text(x + 12, y + 23, fit(title, 36), ` font-size="12" fill="#111827"`),
    );
    y += 44;
  }
  if (hidden > 0) {
    parts.push(text(x + 12, y + 14, l.more(hidden), ` font-size="12" fill="#4b5563"`));
    y += 24;
  }
  const height = y + 4;
  const label = imageLabel(input);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${NARROW_WIDTH}" height="${height}" ` +
      `viewBox="0 0 ${NARROW_WIDTH} ${height}" role="img" ` +
      `aria-label="${escapeXml(label)}" font-family="${FONT}">`,
    `<title>${escapeXml(label)}</title>`,
    `<rect width="${NARROW_WIDTH}" height="${height}" rx="12" fill="#ffffff"/>`,
    ...parts,
    "</svg>",
  ].join("\n");
}

/**
 * Render the goal as an SVG document string. Same input, same bytes. Every text is at least 12
 * units, so the picture shown at its own 560 px keeps its text at 12 px; the widget shows the
 * narrow layout whenever the frame would scale it smaller.
 */
export function renderGoalVisualization(input: GoalVisualizationInput): string {
  const l = labelsOf(input);
  const colors = palette[input.status];
  const shown = input.prerequisites.slice(0, MAX_PREREQUISITES);
  const hidden = input.prerequisites.length - shown.length;
  const rows = Math.max(1, shown.length + (hidden > 0 ? 1 : 0));
  const height = TOP + rows * ROW + 12;
  const goalY = TOP + Math.round((rows * ROW - 8 - 72) / 2);
  const goalMid = goalY + 36;
  const position = input.position ? l.position(input.position.index, input.position.total) : "";
  const heading = `${fit(input.skillTitle, 48)}${position ? ` · ${position}` : ""}`;

  const left: string[] = [text(16, TOP - 10, l.buildsOn, ` font-size="12" fill="#6b7280"`)];
  if (shown.length === 0)
    left.push(
      `<rect x="16" y="${TOP}" width="220" height="${BOX_HEIGHT}" rx="8" ` +
        `fill="#ffffff" stroke="#d1d5db" stroke-dasharray="4 3"/>`,
      text(28, TOP + 25, l.none, ` font-size="12" fill="#6b7280"`),
    );
  shown.forEach((title, i) => {
    const y = TOP + i * ROW;
    left.push(
      `<rect x="16" y="${y}" width="220" height="${BOX_HEIGHT}" rx="8" ` +
        `fill="#ecfdf5" stroke="#10b981"/>`,
      text(28, y + 25, fit(title, 30), ` font-size="12" fill="#111827"`),
      `<path d="M236 ${y + 20} C268 ${y + 20} 268 ${goalMid} 300 ${goalMid}" ` +
        `fill="none" stroke="#9ca3af" stroke-width="1.5"/>`,
    );
  });
  if (hidden > 0)
    left.push(
      text(28, TOP + shown.length * ROW + 20, l.more(hidden), ` font-size="12" fill="#6b7280"`),
    );

  const titleLines = twoLines(input.title, 28);
  const goal = [
    `<rect x="300" y="${goalY}" width="244" height="72" rx="10" ` +
      `fill="${colors.fill}" stroke="${colors.stroke}" stroke-width="2"/>`,
    ...titleLines.map((line, i) =>
      text(
        314,
        goalY + (titleLines.length === 1 ? 32 : 24) + i * 17,
        line,
        ` font-size="14" font-weight="600" fill="#111827"`,
      ),
    ),
    text(
      314,
      goalY + 60,
      l.status[input.status],
      ` font-size="12" font-weight="600" fill="${colors.badge}"`,
    ),
  ];

  const label = imageLabel(input);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" ` +
      `viewBox="0 0 ${WIDTH} ${height}" role="img" ` +
      `aria-label="${escapeXml(label)}" font-family="${FONT}">`,
    `<title>${escapeXml(label)}</title>`,
    `<rect width="${WIDTH}" height="${height}" rx="12" fill="#ffffff"/>`,
    text(16, 28, heading, ` font-size="15" font-weight="700" fill="#111827"`),
    ...left,
    ...goal,
    "</svg>",
  ].join("\n");
}
