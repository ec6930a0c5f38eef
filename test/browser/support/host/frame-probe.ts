// Measurements taken inside a page under test (a widget frame or the start page). Bundled by
// esbuild and evaluated into the frame over the DevTools protocol (not subject to the page's CSP),
// because functions handed to page.evaluate from tsx-compiled tests must not define functions.

/** One failed or measured contrast pair. */
export interface ContrastFinding {
  /** What was measured: the element and a bit of its text. */
  what: string;
  kind: "text" | "control-boundary" | "focus-ring";
  ratio: number;
  required: number;
  foreground: string;
  background: string;
}

declare global {
  interface Window {
    __probe: typeof probe;
  }
}

type Rgba = [number, number, number, number];

function parse(color: string): Rgba | undefined {
  const m = /^rgba?\(([^)]+)\)$/.exec(color.trim());
  if (!m) return undefined;
  const parts = m[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
}

/** `top` painted over the opaque `bottom`. */
function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [
    top[0] * a + bottom[0] * (1 - a),
    top[1] * a + bottom[1] * (1 - a),
    top[2] * a + bottom[2] * (1 - a),
    1,
  ];
}

function luminance([r, g, b]: Rgba): number {
  const channel = (v: number) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG 2 contrast ratio of two opaque colours. */
function ratio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
}

const css = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(", ")})`;

/**
 * The opaque colour behind an element: its ancestors' backgrounds composed bottom-up. A page that
 * paints no background at all is measured against white, the canvas a frame shows when it paints
 * nothing itself (and the worst case for light text).
 */
function backgroundOf(el: Element | null): Rgba {
  const layers: Rgba[] = [];
  for (let e = el; e; e = e.parentElement) {
    const bg = parse(getComputedStyle(e).backgroundColor);
    if (bg && bg[3] > 0) layers.push(bg);
    if (bg && bg[3] >= 1) break;
  }
  let result: Rgba = [255, 255, 255, 1];
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
}

function visible(el: Element): boolean {
  const style = getComputedStyle(el);
  if (style.visibility !== "visible" || style.display === "none") return false;
  const rect = el.getBoundingClientRect();
  return rect.width > 1 && rect.height > 1;
}

function label(el: Element): string {
  const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
  return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).split(" ").join(".")}` : ""} "${text}"`;
}

/**
 * Controls whose shape must stand out (WCAG 1.4.11). Text links are identified by their text and
 * underline, so only links drawn as buttons count.
 */
const CONTROLS = "button, input, select, textarea, a.button";

const probe = {
  /**
   * Every visible text (an element with its own text) against what is behind it (AA: 4.5:1), and
   * the boundary of every control against its surroundings (non-text contrast: 3:1, by the border
   * or by the control's own fill). Texts inside SVG images are the image's business.
   */
  contrast(): ContrastFinding[] {
    const findings: ContrastFinding[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (el.closest("svg") || !visible(el)) continue;
      const ownText = [...el.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? "").trim(),
      );
      const style = getComputedStyle(el);
      const bg = backgroundOf(el);
      if (ownText) {
        const fg = over(parse(style.color) ?? [0, 0, 0, 1], bg);
        findings.push({
          what: label(el),
          kind: "text",
          ratio: ratio(fg, bg),
          required: 4.5,
          foreground: css(fg),
          background: css(bg),
        });
      }
      if (el.matches(CONTROLS) && !(el as HTMLInputElement).disabled) {
        const around = backgroundOf(el.parentElement);
        const border = parse(style.borderTopColor);
        const borderShown = border && Number.parseFloat(style.borderTopWidth) > 0;
        const fill = backgroundOf(el);
        const best = Math.max(
          borderShown ? ratio(over(border, around), around) : 1,
          ratio(fill, around),
        );
        findings.push({
          what: label(el),
          kind: "control-boundary",
          ratio: best,
          required: 3,
          foreground: borderShown ? css(over(border, around)) : css(fill),
          background: css(around),
        });
      }
    }
    return findings;
  },

  /** The focused element's outline against what is around it (3:1), or undefined without focus. */
  focusRing(): (ContrastFinding & { style: string; width: number }) | undefined {
    const el = document.activeElement;
    if (!el || el === document.body) return undefined;
    const style = getComputedStyle(el);
    const around = backgroundOf(el.parentElement);
    const color = over(parse(style.outlineColor) ?? [0, 0, 0, 0], around);
    return {
      what: label(el),
      kind: "focus-ring",
      ratio: ratio(color, around),
      required: 3,
      foreground: css(color),
      background: css(around),
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
    };
  },

  /** The text of the focused element, or "" when nothing in this document has focus. */
  focused(): string {
    const el = document.activeElement;
    return el && el !== document.body ? (el.textContent ?? "").trim() : "";
  },

  /** The content's own height: <html> laid out at max-content (independent of the frame). */
  contentHeight(): number {
    const root = document.documentElement;
    const saved = root.style.height;
    root.style.height = "max-content";
    const h = Math.ceil(root.getBoundingClientRect().height);
    root.style.height = saved;
    return h;
  },

  /** True when the document needs more height than its viewport (it would be clipped). */
  clipped(): boolean {
    return document.documentElement.scrollHeight > window.innerHeight;
  },

  /**
   * Try a network request to `url` two ways (fetch and an image) and collect the CSP violations the
   * document reports meanwhile.
   */
  async request(url: string): Promise<{ fetch: string; image: string; violations: string[] }> {
    const violations: string[] = [];
    const onViolation = (e: SecurityPolicyViolationEvent) =>
      violations.push(`${e.effectiveDirective} ${e.blockedURI}`);
    document.addEventListener("securitypolicyviolation", onViolation);
    let fetched: string;
    try {
      fetched = `ok ${(await fetch(`${url}?via=fetch`)).status}`;
    } catch (error) {
      fetched = `refused: ${(error as Error).message}`;
    }
    const image = await new Promise<string>((resolve) => {
      const img = new Image();
      img.onload = () => resolve("loaded");
      img.onerror = () => resolve("refused");
      img.src = `${url}?via=image`;
    });
    // Violation events are queued as tasks: let them arrive before reporting.
    await new Promise((resolve) => setTimeout(resolve, 0));
    document.removeEventListener("securitypolicyviolation", onViolation);
    return { fetch: fetched, image, violations };
  },
};

window.__probe = probe;
