import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parsePageTemplate, type TemplateScope } from "./page-template.js";

/**
 * The start page's files, a folder of the toolchain itself (not of the served project: the page is
 * the server's, whatever contract it serves), one of its `toolchainAssetDirs`. No `index.html`
 * there, so the UI build never takes it for an MCP Apps widget.
 */
export const startPageDir = "ui/start-page";

/**
 * The folder beside this module: `ui/start-page/` of the sources, or its copy in `build/` that
 * `npm run build` makes for the compiled module (`build/runtime/http/`).
 */
const ownStartPageDir = () =>
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", startPageDir);

const MARKUP = "start-page.html";
const STYLE = "start-page.css";
const SCRIPT = "start-page.js";
const STYLE_LINK = `<link rel="stylesheet" href="${STYLE}">`;
const SCRIPT_TAG = `<script src="${SCRIPT}"></script>`;

/** The start page as loaded at start: its template and the policy that admits its inline parts. */
export interface StartPageFiles {
  /** The whole page for one scope (the data the route injects), style and script inline. */
  render(scope: TemplateScope): string;
  /**
   * The page's own policy: only its inline script and style (by sha256), requests to its own
   * origin, no framing. The page loads nothing from any other origin.
   */
  contentSecurityPolicy: string;
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/**
 * Read the page's markup, style and script once and put them together: the stylesheet link and the
 * script tag of the markup become inline `<style>` and `<script>` elements (the page makes no
 * further request), admitted by their hashes in the page's CSP. Throws, naming the file, when a
 * file is missing or the markup does not link the style and script exactly once.
 */
export function loadStartPageFiles(dir = ownStartPageDir()): StartPageFiles {
  const read = (name: string) => {
    try {
      return readFileSync(path.join(dir, name), "utf8");
    } catch {
      throw new Error(`the start page file ${path.join(dir, name)} is missing or unreadable`);
    }
  };
  const [markup, style, script] = [read(MARKUP), read(STYLE), read(SCRIPT)];
  for (const [tag, file] of [
    [STYLE_LINK, STYLE],
    [SCRIPT_TAG, SCRIPT],
  ] as const)
    if (markup.split(tag).length !== 2)
      throw new Error(
        `${path.join(dir, MARKUP)} must contain ${tag} exactly once (${file} inline)`,
      );
  if (/<\/style/i.test(style)) throw new Error(`${path.join(dir, STYLE)} must not contain </style`);
  if (/<\/script/i.test(script))
    throw new Error(`${path.join(dir, SCRIPT)} must not contain </script`);
  const inlineStyle = `\n${style}`;
  const inlineScript = `\n${script}`;
  const template = parsePageTemplate(
    markup
      .replace(STYLE_LINK, "<style>{{{startPage.style}}}</style>")
      .replace(SCRIPT_TAG, "<script>{{{startPage.script}}}</script>"),
    path.join(dir, MARKUP),
  );
  const parts = { style: inlineStyle, script: inlineScript };
  return {
    render: (scope) => template.render({ ...scope, startPage: parts }),
    contentSecurityPolicy: [
      "default-src 'none'",
      `script-src ${sha256(inlineScript)}`,
      `style-src ${sha256(inlineStyle)}`,
      "connect-src 'self'",
      "img-src data:",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join("; "),
  };
}

let loaded: StartPageFiles | undefined;

/** The toolchain's start page, read on first use (the server's start) and kept. */
export function startPageFiles(): StartPageFiles {
  loaded ??= loadStartPageFiles();
  return loaded;
}
