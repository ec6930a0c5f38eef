import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { uiUri } from "../../contract-model/ui/ui-uri.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";

/** One built UI page: a single self-contained HTML document and its content address. */
export interface UiArtifact {
  /** Resource name = the `ui/<name>/` folder = the key in `release/line.json` `activeUi`. */
  name: string;
  html: Buffer;
  sha256: string;
  uri: string;
}

/** Thrown when a UI source cannot become one self-contained page. */
export class UiBuildError extends Error {
  override name = "UiBuildError";
}

const SCRIPT_SRC = /<script\b([^>]*?)\ssrc=["']([^"']+)["']([^>]*)>\s*<\/script>/gi;
const STYLESHEET = /<link\b(?=[^>]*\brel=["']stylesheet["'])[^>]*?\bhref=["']([^"']+)["'][^>]*>/gi;

/**
 * Build `ui/<name>/index.html` into one self-contained page: local `<script src>` and stylesheet
 * `<link>`s are inlined, remote references are refused (the widget CSP allows no foreign origin). A
 * page that references nothing is its own artifact, byte for byte, so its hash is the file's hash.
 */
export async function buildUiArtifact(
  uiDir: string,
  name: string,
  contractMajor: number,
): Promise<UiArtifact> {
  const dir = path.join(uiDir, name);
  const entry = path.join(dir, "index.html");
  const source = await readFile(entry, "utf8").catch(() => {
    throw new UiBuildError(`${entry}: missing; every ui/<name>/ needs an index.html`);
  });
  let html = source;
  html = await replaceAsync(
    html,
    SCRIPT_SRC,
    async (_m, before: string, src: string, after: string) =>
      `<script${before}${after}>\n` +
      `${escapeClosing(await readLocal(dir, src, entry), "script")}\n</script>`,
  );
  html = await replaceAsync(
    html,
    STYLESHEET,
    async (_m, href: string) =>
      `<style>\n${escapeClosing(await readLocal(dir, href, entry), "style")}\n</style>`,
  );
  const bytes = html === source ? await readFile(entry) : Buffer.from(html, "utf8");
  const sha256 = sha256Hex(bytes);
  return { name, html: bytes, sha256, uri: uiUri(contractMajor, sha256) };
}

/** Every `ui/<name>/` folder that holds an index.html, sorted by name. */
export async function listUiSources(uiDir: string): Promise<string[]> {
  const names = await readdir(uiDir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const name of names.sort()) {
    const stat = await lstat(path.join(uiDir, name, "index.html")).catch(() => undefined);
    if (stat?.isFile()) out.push(name);
  }
  return out;
}

/** Build every UI source of a project. */
export async function buildAllUi(root: string, contractMajor: number): Promise<UiArtifact[]> {
  const uiDir = path.join(root, projectLayout.uiDir);
  return Promise.all(
    (await listUiSources(uiDir)).map((name) => buildUiArtifact(uiDir, name, contractMajor)),
  );
}

async function readLocal(dir: string, ref: string, entry: string): Promise<string> {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(ref))
    throw new UiBuildError(`${entry}: ${ref} is not local; a UI artifact must be self-contained`);
  const abs = path.resolve(dir, ref);
  if (!abs.startsWith(dir + path.sep))
    throw new UiBuildError(`${entry}: ${ref} points outside ${dir}`);
  const stat = await lstat(abs).catch(() => undefined);
  if (!stat?.isFile()) throw new UiBuildError(`${entry}: ${ref} is not a regular file`);
  return readFile(abs, "utf8");
}

/** Keep inlined code from closing its own element early. */
const escapeClosing = (text: string, tag: string) =>
  text.replace(new RegExp(`</${tag}`, "gi"), `<\\/${tag}`);

async function replaceAsync(
  text: string,
  pattern: RegExp,
  fn: (...groups: string[]) => Promise<string>,
): Promise<string> {
  const parts: Promise<string>[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    parts.push(Promise.resolve(text.slice(last, m.index)), fn(...(m as unknown as string[])));
    last = m.index! + m[0].length;
  }
  parts.push(Promise.resolve(text.slice(last)));
  return (await Promise.all(parts)).join("");
}
