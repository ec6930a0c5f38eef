import { readFile } from "node:fs/promises";
import path from "node:path";
import { uiBinding } from "../../contract-model/contract-doc.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { parseUiUri, retainedUiPath } from "../../contract-model/ui/ui-uri.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { IMPORT_HASH_MISMATCH, IMPORT_UI_MISSING, IMPORT_UI_UNADDRESSED } from "./import.rules.js";
import type { LocatedRelease } from "./locate-release.js";
import type { ArchiveFile } from "./read-archive.js";

/** A UI page of an imported release: its resource name, URI and bytes (from the bundle). */
export interface ImportedPage {
  name: string;
  uri: string;
  /** Undefined when the store already retains the URI (nothing to write). */
  html?: Buffer;
}

/**
 * Every UI URI an imported release binds (its manifest's `ui` and its tools' `_meta.ui` /
 * `openai/outputTemplate`), with the bytes to retain (L10): the page the manifest names, else the
 * bundle file hashing to the URI's hash, else the copy already retained. A page whose bytes do not
 * hash to its URI, a bound URI without bytes anywhere, or a retained file under the URI's path
 * with other bytes are errors; a URI that is not content-addressed is a warning (it cannot be
 * retained).
 */
export async function resolveImportUi(
  root: string,
  file: string,
  located: LocatedRelease,
  files: readonly ArchiveFile[],
  diagnostics: Diagnostic[],
): Promise<ImportedPage[]> {
  const refs = new Map<string, { name: string; file?: string; declared: boolean }>();
  for (const u of located.ui)
    if (!refs.has(u.uri)) refs.set(u.uri, { name: u.name, file: u.file, declared: true });
  for (const tool of located.tools) {
    const { uri } = uiBinding(tool._meta);
    if (uri && !refs.has(uri)) refs.set(uri, { name: String(tool.name), declared: false });
  }
  const names = new Set<string>();
  const byPath = new Map(files.map((f) => [f.path, f.data]));
  const pages: ImportedPage[] = [];
  for (const [uri, ref] of [...refs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const parsed = parseUiUri(uri);
    if (!parsed) {
      diagnostics.push(diagnose(IMPORT_UI_UNADDRESSED, { uri, name: ref.name }, { file }));
      continue;
    }
    const namedData = ref.file !== undefined ? byPath.get(ref.file) : undefined;
    const named = namedData && { path: ref.file!, data: namedData };
    if (named && sha256Hex(named.data) !== parsed.sha256) {
      diagnostics.push(
        diagnose(
          IMPORT_HASH_MISMATCH,
          { variant: "ui", file, path: ref.file!, uri, actual: sha256Hex(named.data) },
          { file },
        ),
      );
      continue;
    }
    const found =
      named ?? files.find((f) => f.data.length > 0 && sha256Hex(f.data) === parsed.sha256);
    let name = ref.declared || !found ? ref.name : (pageName(found.path) ?? ref.name);
    for (let i = 2; names.has(name); i++) name = `${ref.name}-${i}`;
    names.add(name);
    const storePath = path.join(root, retainedUiPath(uri)!);
    const retained = await readFile(storePath).catch(() => undefined);
    if (retained && sha256Hex(retained) !== parsed.sha256) {
      // The store itself is damaged (verify says UI_BYTES_CHANGED); never write beside it.
      diagnostics.push(
        diagnose(
          IMPORT_HASH_MISMATCH,
          {
            variant: "ui",
            file: "contracts/ui",
            path: retainedUiPath(uri)!,
            uri,
            actual: sha256Hex(retained),
          },
          { file: retainedUiPath(uri)! },
        ),
      );
      continue;
    }
    if (!found && !retained) {
      diagnostics.push(diagnose(IMPORT_UI_MISSING, { uri, name, file }, { file }));
      continue;
    }
    pages.push({ name, uri, ...(retained ? {} : { html: found!.data }) });
  }
  return pages;
}

/** `ui/<name>/index.html` (at any depth) → `<name>`. */
function pageName(p: string): string | undefined {
  return /(?:^|\/)ui\/([^/]+)\/index\.html$/.exec(p)?.[1];
}
