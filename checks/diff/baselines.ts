import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
// One function module each: the whole semver package is ~50 CommonJS files to load.
import validVersion from "semver/functions/valid.js";
import compareVersion from "semver/functions/compare.js";
import { sha256Hex } from "../../contract-model/canonical.js";
import { isObject } from "../../json-schema/schema-facts.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { jsonError } from "../../diagnostics/json-error.js";
import { diagnose } from "../../diagnostics/rule.js";
import {
  CONTRACT_INPUT_INVALID,
  parseContractDoc,
  type ContractDoc,
} from "../../contract-model/contract-doc.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { arrayElementTexts } from "./json-scan.js";
import {
  liveDefinitionHolders,
  toolsFreedByRetirement,
} from "../../evolution/approved-definitions.js";
import { isServerUrl, listLiveTools, type LiveServerOptions } from "./live-server.js";
import { listRetainedUi, readUiActivations } from "../../contract-model/ui/ui-store.js";
import { retainedUiPath } from "../../contract-model/ui/ui-uri.js";
import { readGitFile } from "../../contract-model/history/git-history.js";

/** Where `record-published` keeps immutable snapshots (L4). */
export const publishedRoot = projectLayout.publishedDir;
export const snapshotName = "contract.snapshot.json";

const rel = (root: string, abs: string) =>
  path.relative(root, abs).split(path.sep).join("/") || ".";

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(abs)));
    else if (e.isFile() && e.name === snapshotName) out.push(abs);
  }
  return out;
}

/** Parse JSON text into a diff side; unreadable input becomes a diagnostic. */
export function docFromText(
  text: string,
  file: string,
  diagnostics: Diagnostic[],
  version?: string,
): ContractDoc | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const why = jsonError(text);
    diagnostics.push(
      diagnose(
        CONTRACT_INPUT_INVALID,
        { variant: "notJson", file, error: why?.message ?? "not JSON" },
        { file, ...(why && { line: why.line, column: why.column }) },
      ),
    );
    return undefined;
  }
  // Each tool's own text: byte-identical tools on both sides are never compared further.
  const body = isObject(json) && isObject(json.result) ? ["result", "tools"] : ["tools"];
  const texts = arrayElementTexts(text, Array.isArray(json) ? [] : body);
  const doc = parseContractDoc(json, file, diagnostics, version, texts);
  if (!doc) return undefined;
  doc.text = text;
  return doc;
}

/**
 * Read one contract document (snapshot or tools/list) from disk, or, for an `http(s)://…/mcp`
 * address, list the live server's tools over MCP.
 */
export async function readDoc(
  root: string,
  file: string,
  diagnostics: Diagnostic[],
  version?: string,
  live: LiveServerOptions = {},
): Promise<ContractDoc | undefined> {
  if (isServerUrl(file)) {
    try {
      const { tools, ttlMs, cacheScope } = await listLiveTools(file, live);
      return parseContractDoc({ tools, ttlMs, cacheScope }, file, diagnostics, version);
    } catch (error) {
      diagnostics.push(
        diagnose(
          CONTRACT_INPUT_INVALID,
          { variant: "unreachable", file, error: (error as Error).message.split("\n")[0] },
          { file },
        ),
      );
      return undefined;
    }
  }
  const abs = path.resolve(root, file);
  const text = await readFile(abs, "utf8").catch(() => undefined);
  if (text === undefined) {
    diagnostics.push(diagnose(CONTRACT_INPUT_INVALID, { variant: "unreadable", file }, { file }));
    return undefined;
  }
  return docFromText(text, rel(root, abs), diagnostics, version);
}

/**
 * `contracts/published/<provider>/<plugin>/<version>/contract.snapshot.json`: exactly one per
 * published version.
 */
async function publishedSnapshots(root: string): Promise<string[]> {
  const dirs = async (p: string) =>
    (await readdir(p, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory())
      .map((e) => path.join(p, e.name));
  const out: string[] = [];
  for (const provider of await dirs(path.join(root, publishedRoot)))
    for (const plugin of await dirs(provider))
      for (const version of await dirs(plugin)) {
        const file = path.join(version, snapshotName);
        if ((await stat(file).catch(() => undefined))?.isFile()) out.push(file);
      }
  return out;
}

/**
 * Every published snapshot whose definitions are still live (not retired), plus the draft under
 * review freeze, oldest version first (L12.2: diff against all of them).
 */
export async function publishedBaselines(
  root: string,
  diagnostics: Diagnostic[],
): Promise<ContractDoc[]> {
  // Unreadable release records leave every folder a baseline; verify reports the records.
  const live = await liveDefinitionHolders(root).catch(() => undefined);
  const retired = new Set(live?.retired.map((r) => r.version));
  const files = (await publishedSnapshots(root)).filter(
    (f) => !retired.has(path.basename(path.dirname(f))),
  );
  for (const h of live?.holders ?? [])
    if (h.kind === "frozen-draft") files.push(path.join(root, h.snapshotFile));
  const docs = (await Promise.all(files.map((f) => readDoc(root, f, diagnostics)))).filter(
    (d): d is ContractDoc => d !== undefined,
  );
  return docs.sort((a, b) =>
    validVersion(a.packageVersion) && validVersion(b.packageVersion)
      ? compareVersion(a.packageVersion!, b.packageVersion!)
      : a.file < b.file
        ? -1
        : 1,
  );
}

/**
 * Baselines named by `--against`: a directory (every snapshot below it), a file, `git:REF` (the
 * snapshot at that commit), or a live server's `http(s)://…/mcp` (its tools/list over MCP).
 */
export async function againstBaselines(
  root: string,
  against: string,
  snapshotFile: string,
  diagnostics: Diagnostic[],
  version?: string,
  live: LiveServerOptions = {},
): Promise<ContractDoc[]> {
  if (isServerUrl(against)) {
    const doc = await readDoc(root, against, diagnostics, version, live);
    return doc ? [doc] : [];
  }
  if (against.startsWith("git:")) {
    const ref = against.slice(4);
    const label = `git:${ref}:${snapshotFile}`;
    const text = await readGitFile(root, ref, snapshotFile);
    const doc =
      typeof text === "string" ? docFromText(text, label, diagnostics, version) : undefined;
    // Release records that cannot be read leave the commit's snapshot unusable as a baseline too.
    const freed = doc && (await toolsFreedByRetirement(root).catch(() => undefined));
    if (typeof text !== "string" || (doc && !freed)) {
      diagnostics.push(
        diagnose(CONTRACT_INPUT_INVALID, { variant: "notInGit", file: label }, { file: label }),
      );
      return [];
    }
    if (doc && freed) doc.freedTools = freed;
    return doc ? [doc] : [];
  }
  const abs = path.resolve(root, against);
  const info = await stat(abs).catch(() => undefined);
  if (info?.isDirectory()) {
    const files = await walk(abs);
    if (files.length === 0)
      diagnostics.push(
        diagnose(
          CONTRACT_INPUT_INVALID,
          { variant: "noSnapshot", dir: against, snapshot: snapshotName },
          { file: against },
        ),
      );
    return (
      await Promise.all(files.sort().map((f) => readDoc(root, f, diagnostics, version)))
    ).filter((d): d is ContractDoc => d !== undefined);
  }
  const doc = await readDoc(root, against, diagnostics, version);
  return doc ? [doc] : [];
}

/**
 * What the project serves under `ui://` URIs (L10): the runtime serves pages only from the UI store
 * (`contracts/ui/`), so each URI that was ever active (`contracts/ui-activations.json`), is active
 * now (`release/line.json`) or is retained maps to the sha256 of its retained file; a URI whose file
 * is gone is absent. `required` names the URIs that must stay served and where that is recorded.
 */
export async function projectUiServing(
  root: string,
): Promise<{ bytes: Map<string, string>; required: Map<string, string> }> {
  const required = new Map<string, string>();
  for (const a of await readUiActivations(root).catch(() => []))
    required.set(a.uri, projectLayout.uiActivations);
  const line = await readFile(path.join(root, projectLayout.lineFile), "utf8")
    .then((t) => JSON.parse(t) as { activeUi?: Record<string, string> })
    .catch(() => undefined);
  for (const uri of Object.values(line?.activeUi ?? {}))
    if (typeof uri === "string" && !required.has(uri)) required.set(uri, projectLayout.lineFile);
  const bytes = new Map<string, string>();
  for (const uri of new Set([...required.keys(), ...(await listRetainedUi(root))])) {
    const rel = retainedUiPath(uri);
    const html = rel ? await readFile(path.join(root, rel)).catch(() => undefined) : undefined;
    if (html) bytes.set(uri, sha256Hex(html));
  }
  return { bytes, required };
}
