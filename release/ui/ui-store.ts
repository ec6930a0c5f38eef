import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../bundle/sha256-manifest.js";
import { buildAllUi } from "./build-ui.js";
import { contractsLayout } from "../layout.js";
import { parseUiUri, retainedUiPath, uiUri } from "./ui-uri.js";

/** Result of retaining one artifact in the repository store. */
export type RetainOutcome = "written" | "unchanged";

/**
 * Keep the bytes of a UI URI under `contracts/ui/<uri path>` for good (L10). The path is derived
 * from the content hash, so the only legal content is the one that hashes to it: anything else is
 * refused.
 */
export async function retainUiArtifact(
  root: string,
  uri: string,
  html: Buffer,
): Promise<RetainOutcome> {
  const parsed = parseUiUri(uri);
  const rel = retainedUiPath(uri);
  if (!parsed || !rel) throw new Error(`${uri} is not a content-addressed UI URI`);
  if (sha256Hex(html) !== parsed.sha256)
    throw new Error(`refusing to retain ${uri}: the bytes hash to sha256-${sha256Hex(html)}`);
  const abs = path.join(root, rel);
  const existing = await readFile(abs).catch(() => undefined);
  if (existing?.equals(html)) return "unchanged";
  if (existing)
    throw new Error(
      `${rel} exists with other bytes than its address says; restore it from git, never rewrite it`,
    );
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(abs, html, { flag: "wx" });
  return "written";
}

/** Where `resolveUiResource` found the bytes. */
export type UiSource = "retained" | "source";

/**
 * The bytes a UI URI serves, verified against its hash: first the retained store (every URI ever
 * published), then the current `ui/<name>/` sources (the active, not yet published pages). The
 * runtime serves `resources/read` from this; undefined means the URI is unknown (or its bytes were
 * altered).
 */
export async function resolveUiResource(
  root: string,
  uri: string,
): Promise<{ html: Buffer; from: UiSource } | undefined> {
  const parsed = parseUiUri(uri);
  const rel = retainedUiPath(uri);
  if (!parsed || !rel) return undefined;
  const retained = await readFile(path.join(root, rel)).catch(() => undefined);
  if (retained && sha256Hex(retained) === parsed.sha256)
    return { html: retained, from: "retained" };
  const built = (await buildAllUi(root, parsed.contractMajor).catch(() => [])).find(
    (a) => a.sha256 === parsed.sha256,
  );
  return built ? { html: built.html, from: "source" } : undefined;
}

/**
 * One UI resource the runtime can list: its URI, and the active resource name when it is bound now.
 */
export interface ServableUi {
  uri: string;
  /** `activeUi` key in release/line.json, when this URI is bound by a descriptor now. */
  activeAs?: string;
}

/**
 * Every UI URI the runtime should answer `resources/read` for (L10): the active URIs of
 * `release/line.json` plus every retained one under `contracts/ui/`, sorted, each once.
 * Bytes come from `resolveUiResource`.
 */
export async function listServableUi(root: string): Promise<ServableUi[]> {
  const line = JSON.parse(await readFile(path.join(root, "release/line.json"), "utf8")) as {
    activeUi?: Record<string, string>;
  };
  const byUri = new Map<string, ServableUi>();
  for (const [name, uri] of Object.entries(line.activeUi ?? {}))
    byUri.set(uri, { uri, activeAs: name });
  const store = path.join(root, contractsLayout.uiStore, "skillpilot", "coach");
  for (const major of await readdir(store).catch(() => [] as string[]))
    for (const entry of await readdir(path.join(store, major)).catch(() => [] as string[])) {
      const m = /^sha256-([0-9a-f]{64})$/.exec(entry);
      if (!m || !/^[1-9][0-9]*$/.test(major)) continue;
      const uri = uiUri(Number(major), m[1]);
      if (!byUri.has(uri)) byUri.set(uri, { uri });
    }
  return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}
