import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { parseSha256Manifest, sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import type { ArchiveFile } from "./read-archive.js";
import { IMPORT_HASH_MISMATCH, IMPORT_INPUT_INVALID } from "./import.rules.js";

/** What a release to import says about itself, read from its manifest and tools list. */
export interface LocatedRelease {
  /** The manifest and tools list read (paths inside the bundle, or the given file names). */
  manifestPath: string;
  toolsPath: string;
  packageName: string;
  version: string;
  displayName?: string;
  contractMajor?: number;
  /** `policyRevision` of a `contract-line.json` the manifest points at (our package layout). */
  policyRevision?: number;
  /** UI resources the manifest declares: name → URI and, in a bundle, the page's path. */
  ui: { name: string; uri: string; file?: string }[];
  /** The tools/list descriptors, as the release shipped them (a snapshot's without `kind`). */
  tools: Record<string, unknown>[];
  /** When the tools list is our contract snapshot: its bytes, kept as the release's snapshot. */
  snapshot?: Buffer;
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json =>
  v !== null && typeof v === "object" && !Array.isArray(v);

const manifestNames = ["plugin.json", "manifest.json"];
const sumsNames = ["SHA256SUMS", "sha256sums.txt"];
const depth = (p: string) => p.split("/").length - 1;

/**
 * Find the package manifest and the tools list inside a bundle: a `plugin.json` (else
 * `manifest.json`) at the root or one folder down (`package/`, `<name>-<version>/`), the tools list
 * the manifest points at (`"tools": "tools.json"`), else a `contract.snapshot.json` beside it or at
 * the root, else a `tools.json` beside it. Every `SHA256SUMS` at the root or one folder down must
 * match the files it lists.
 */
export function locateInBundle(
  file: string,
  files: readonly ArchiveFile[],
  diagnostics: Diagnostic[],
): LocatedRelease | undefined {
  const byPath = new Map(files.map((f) => [f.path, f.data]));
  checkSums(file, files, byPath, diagnostics);
  const candidates = files
    .map((f) => f.path)
    .filter((p) => depth(p) <= 1 && manifestNames.includes(path.posix.basename(p)));
  const shallowest = Math.min(...candidates.map(depth));
  const folders = new Map<string, string>();
  for (const p of candidates.filter((c) => depth(c) === shallowest)) {
    const dir = path.posix.dirname(p);
    const known = folders.get(dir);
    if (!known || path.posix.basename(p) === "plugin.json") folders.set(dir, p);
  }
  if (folders.size === 0) {
    diagnostics.push(diagnose(IMPORT_INPUT_INVALID, { variant: "noManifest", file }, { file }));
    return undefined;
  }
  if (folders.size > 1) {
    diagnostics.push(
      diagnose(
        IMPORT_INPUT_INVALID,
        { variant: "manyManifests", file, found: [...folders.values()].sort().join(", ") },
        { file },
      ),
    );
    return undefined;
  }
  const manifestPath = [...folders.values()][0];
  const base = path.posix.dirname(manifestPath);
  const at = (rel: string) => (base === "." ? rel : `${base}/${rel}`);
  const manifest = parseJson(`${file}:${manifestPath}`, byPath.get(manifestPath)!, diagnostics);
  if (!isRecord(manifest)) {
    if (manifest !== undefined)
      diagnostics.push(
        diagnose(
          IMPORT_INPUT_INVALID,
          { variant: "manifestShape", file: `${file}:${manifestPath}` },
          { file },
        ),
      );
    return undefined;
  }
  const pointer = typeof manifest.tools === "string" ? at(manifest.tools) : undefined;
  const toolsPath = [
    pointer,
    at("contract.snapshot.json"),
    "contract.snapshot.json",
    at("tools.json"),
  ].find((p) => p !== undefined && byPath.has(p));
  if (!toolsPath) {
    diagnostics.push(diagnose(IMPORT_INPUT_INVALID, { variant: "noTools", file }, { file }));
    return undefined;
  }
  const line =
    typeof manifest.contractLine === "string" ? byPath.get(at(manifest.contractLine)) : undefined;
  const lineDoc = line ? tryJson(line) : undefined;
  return readRelease(
    { label: `${file}:${manifestPath}`, path: manifestPath, doc: manifest },
    { label: `${file}:${toolsPath}`, path: toolsPath, data: byPath.get(toolsPath)! },
    diagnostics,
    {
      resolve: (rel) => at(rel),
      policyRevision: isRecord(lineDoc) ? lineDoc.policyRevision : undefined,
    },
  );
}

/** A submitted tools list and package manifest, as two files. */
export function locateInFiles(
  manifest: { name: string; data: Buffer },
  tools: { name: string; data: Buffer },
  diagnostics: Diagnostic[],
): LocatedRelease | undefined {
  const doc = parseJson(manifest.name, manifest.data, diagnostics);
  if (doc === undefined) return undefined;
  if (!isRecord(doc)) {
    diagnostics.push(
      diagnose(
        IMPORT_INPUT_INVALID,
        { variant: "manifestShape", file: manifest.name },
        { file: manifest.name },
      ),
    );
    return undefined;
  }
  return readRelease(
    { label: manifest.name, path: manifest.name, doc },
    { label: tools.name, path: tools.name, data: tools.data },
    diagnostics,
    {},
  );
}

function readRelease(
  manifest: { label: string; path: string; doc: Json },
  toolsFile: { label: string; path: string; data: Buffer },
  diagnostics: Diagnostic[],
  options: { resolve?: (rel: string) => string; policyRevision?: unknown },
): LocatedRelease | undefined {
  const m = manifest.doc;
  const text = (...keys: string[]) =>
    keys.map((k) => m[k]).find((v): v is string => typeof v === "string" && v !== "");
  const packageName = text("name", "packageName");
  const version = text("version", "packageVersion");
  for (const [field, value] of [
    ["name", packageName],
    ["version", version],
  ] as const)
    if (value === undefined)
      diagnostics.push(
        diagnose(
          IMPORT_INPUT_INVALID,
          { variant: "manifestField", file: manifest.label, field },
          { file: manifest.label },
        ),
      );
  const tools = readTools(toolsFile.label, toolsFile.data, diagnostics);
  if (packageName === undefined || version === undefined || !tools) return undefined;
  const ui: LocatedRelease["ui"] = [];
  if (isRecord(m.ui))
    for (const [name, value] of Object.entries(m.ui)) {
      const uri = typeof value === "string" ? value : isRecord(value) ? value.uri : undefined;
      const file = isRecord(value) && typeof value.file === "string" ? value.file : undefined;
      if (typeof uri === "string")
        ui.push({ name, uri, ...(file && options.resolve ? { file: options.resolve(file) } : {}) });
    }
  return {
    manifestPath: manifest.path,
    toolsPath: toolsFile.path,
    packageName,
    version,
    ...(text("displayName", "display_name")
      ? { displayName: text("displayName", "display_name") }
      : {}),
    ...(Number.isInteger(m.contractMajor) ? { contractMajor: m.contractMajor as number } : {}),
    ...(Number.isInteger(options.policyRevision)
      ? { policyRevision: options.policyRevision as number }
      : {}),
    ui,
    ...tools,
  };
}

/**
 * A tools list: our contract snapshot (kept byte for byte), an MCP `tools/list` result (also
 * JSON-RPC wrapped) or a bare array of descriptors. Each descriptor needs a unique string `name`
 * and an object `inputSchema` (MCP requires both).
 */
function readTools(
  file: string,
  data: Buffer,
  diagnostics: Diagnostic[],
): { tools: Record<string, unknown>[]; snapshot?: Buffer } | undefined {
  const doc = parseJson(file, data, diagnostics);
  if (doc === undefined) return undefined;
  const body = isRecord(doc) && isRecord(doc.result) ? doc.result : doc;
  const list = Array.isArray(body) ? body : isRecord(body) ? body.tools : undefined;
  if (!Array.isArray(list)) {
    diagnostics.push(diagnose(IMPORT_INPUT_INVALID, { variant: "toolsShape", file }, { file }));
    return undefined;
  }
  const snapshot = isRecord(body) && typeof body.snapshotFormat === "string";
  const names = new Set<string>();
  const tools: Record<string, unknown>[] = [];
  let ok = true;
  list.forEach((entry: unknown, index) => {
    const why = !isRecord(entry)
      ? "not an object"
      : typeof entry.name !== "string" || entry.name === ""
        ? "no name"
        : !isRecord(entry.inputSchema)
          ? "no inputSchema object"
          : undefined;
    if (why || !isRecord(entry)) {
      ok = false;
      diagnostics.push(
        diagnose(IMPORT_INPUT_INVALID, { variant: "toolShape", file, index, why: why! }, { file }),
      );
      return;
    }
    const name = entry.name as string;
    if (names.has(name)) {
      ok = false;
      diagnostics.push(
        diagnose(IMPORT_INPUT_INVALID, { variant: "toolTwice", file, tool: name }, { file }),
      );
    }
    names.add(name);
    const { kind: _kind, ...descriptor } = entry;
    tools.push(snapshot ? descriptor : entry);
  });
  if (!ok) return undefined;
  return { tools, ...(snapshot ? { snapshot: data } : {}) };
}

/** Every SHA256SUMS at the root or one folder down matches the files it lists (relative to it). */
function checkSums(
  file: string,
  files: readonly ArchiveFile[],
  byPath: ReadonlyMap<string, Buffer>,
  diagnostics: Diagnostic[],
): void {
  for (const sums of files.filter(
    (f) => depth(f.path) <= 1 && sumsNames.includes(path.posix.basename(f.path)),
  )) {
    const dir = path.posix.dirname(sums.path);
    const { entries, malformed } = parseSha256Manifest(sums.data.toString("utf8"));
    for (const line of malformed)
      diagnostics.push(
        diagnose(
          IMPORT_HASH_MISMATCH,
          { variant: "malformed", file, sums: sums.path, line },
          { file },
        ),
      );
    for (const e of entries) {
      const listed = path.posix.normalize(dir === "." ? e.path : `${dir}/${e.path}`);
      const data = byPath.get(listed);
      if (!data)
        diagnostics.push(
          diagnose(
            IMPORT_HASH_MISMATCH,
            { variant: "missing", file, path: listed, sums: sums.path },
            { file },
          ),
        );
      else if (sha256Hex(data) !== e.sha256)
        diagnostics.push(
          diagnose(
            IMPORT_HASH_MISMATCH,
            { variant: "listed", file, path: listed, sums: sums.path },
            { file },
          ),
        );
    }
  }
}

function parseJson(file: string, data: Buffer, diagnostics: Diagnostic[]): unknown {
  try {
    return JSON.parse(data.toString("utf8"));
  } catch (e) {
    diagnostics.push(
      diagnose(
        IMPORT_INPUT_INVALID,
        { variant: "notJson", file, error: (e as Error).message },
        { file },
      ),
    );
    return undefined;
  }
}

const tryJson = (data: Buffer): unknown => {
  try {
    return JSON.parse(data.toString("utf8"));
  } catch {
    return undefined;
  }
};
