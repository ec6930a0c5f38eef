import { readFile } from "node:fs/promises";
import path from "node:path";
import { listRetainedUi, readRetainedUi } from "../../contract-model/ui/ui-store.js";
import { parseUiUri } from "../../contract-model/ui/ui-uri.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { buildAllUi } from "./build-ui.js";

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
  if (!parsed) return undefined;
  const retained = await readRetainedUi(root, uri);
  if (retained) return { html: retained, from: "retained" };
  const built = (await buildAllUi(root, parsed.contractMajor).catch(() => [])).find(
    (a) => a.sha256 === parsed.sha256,
  );
  return built ? { html: built.html, from: "source" } : undefined;
}

/** One UI URI release tooling knows of: its address, and its active name when bound now. */
export interface ServableUi {
  uri: string;
  /** `activeUi` key in release/line.json, when this URI is bound by a descriptor now. */
  activeAs?: string;
}

/**
 * Every UI URI that must stay readable (L10): the active URIs of `release/line.json` plus every
 * retained one under `contracts/ui/`, sorted, each once.
 */
export async function listServableUi(root: string): Promise<ServableUi[]> {
  const line = JSON.parse(await readFile(path.join(root, projectLayout.lineFile), "utf8")) as {
    activeUi?: Record<string, string>;
  };
  const byUri = new Map<string, ServableUi>();
  for (const [name, uri] of Object.entries(line.activeUi ?? {}))
    byUri.set(uri, { uri, activeAs: name });
  for (const uri of await listRetainedUi(root)) if (!byUri.has(uri)) byUri.set(uri, { uri });
  return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}
