import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJson, sha256Hex } from "../canonical.js";
import { projectLayout } from "../project/project-layout.js";
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

/**
 * The retained bytes of a UI URI, verified against the hash in its address; undefined when the URI
 * is not content-addressed, not retained, or its file no longer hashes to its address.
 */
export async function readRetainedUi(root: string, uri: string): Promise<Buffer | undefined> {
  const parsed = parseUiUri(uri);
  const rel = retainedUiPath(uri);
  if (!parsed || !rel) return undefined;
  const retained = await readFile(path.join(root, rel)).catch(() => undefined);
  return retained && sha256Hex(retained) === parsed.sha256 ? retained : undefined;
}

/** Every URI retained under `contracts/ui/` (L10), sorted. */
export async function listRetainedUi(root: string): Promise<string[]> {
  const uris: string[] = [];
  const store = path.join(root, projectLayout.uiStore, "skillpilot", "coach");
  for (const major of await readdir(store).catch(() => [] as string[]))
    for (const entry of await readdir(path.join(store, major)).catch(() => [] as string[])) {
      const m = /^sha256-([0-9a-f]{64})$/.exec(entry);
      if (m && /^[1-9][0-9]*$/.test(major)) uris.push(uiUri(Number(major), m[1]));
    }
  return uris.sort();
}

/** Format tag of `contracts/ui-activations.json`. */
export const uiActivationsFormat = "skillpilot-ui-activations/1";

/** One URI that was active (bound by a descriptor) or published at some point (L10). */
export interface UiActivation {
  uri: string;
  /** The resource name it was active as (`activeUi` key, `ui/<name>/`). */
  name: string;
}

/**
 * Every URI ever activated or published, in the order of its first activation; a missing file is an
 * empty record. Throws on a file that is not a record (verify reports it).
 */
export async function readUiActivations(root: string): Promise<UiActivation[]> {
  const text = await readFile(path.join(root, projectLayout.uiActivations), "utf8").catch(
    () => undefined,
  );
  if (text === undefined) return [];
  const doc = JSON.parse(text) as { format?: unknown; activations?: unknown };
  if (doc.format !== uiActivationsFormat || !Array.isArray(doc.activations))
    throw new Error(`${projectLayout.uiActivations} is not a ${uiActivationsFormat} record`);
  return (doc.activations as UiActivation[]).filter(
    (a) => typeof a?.uri === "string" && typeof a.name === "string",
  );
}

/**
 * Record URIs as activated (L10): appended when new, never removed or reordered. Called together
 * with `retainUiArtifact` by everything that makes a URI servable (`ui build --activate`,
 * `record-published`). Returns the URIs added.
 */
export async function recordUiActivations(
  root: string,
  activations: readonly UiActivation[],
): Promise<string[]> {
  const known = await readUiActivations(root);
  const seen = new Set(known.map((a) => a.uri));
  const added = activations.filter((a) => !seen.has(a.uri) && seen.add(a.uri));
  if (added.length === 0) return [];
  const abs = path.join(root, projectLayout.uiActivations);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(
    abs,
    canonicalJson({
      format: uiActivationsFormat,
      activations: [...known, ...added].map(({ uri, name }) => ({ uri, name })),
    }),
  );
  return added.map((a) => a.uri);
}
