import { canonicalSha256 } from "./canonical.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import { comparable, inlineRefs } from "./normalize.js";
import { type SkillsAndListing, skillsAndListingOf } from "./skills-listing.js";
import { isObject, jsonEqual, type JsonObject, type Schema } from "../json-schema/schema-facts.js";

/** Also reported when a compared document cannot be read (`baselines.ts`). */
export const CONTRACT_INPUT_INVALID = defineRule({
  id: "CONTRACT_INPUT_INVALID",
  family: "diff",
  severity: "error",
  summary: "A compared document is neither a contract snapshot nor an MCP tools/list result.",
  message: {
    noTools:
      '{file} has no tools array: expected a contract snapshot, {"tools":[…]} or an array of tool descriptors',
    noName: "tool #{index} of {file} has no name",
    twice: "tool {tool} is listed twice in {file}",
    times: "tool {tool} is listed {count} times in {file}",
    noNames: "tool #{index} of {file} and {more} more have no name",
    notJson: "{file} is not valid JSON: {error}",
    unreadable: "{file} cannot be read",
    notInGit: "{file} cannot be read from git",
    unreachable: "{file}: tools/list over MCP failed: {error}",
    noSnapshot: "{dir} holds no {snapshot}",
  },
});

/**
 * One tool as the diff compares it: descriptor facts plus comparable (dereferenced,
 * annotation-free) schemas.
 */
export interface DiffTool {
  name: string;
  /**
   * The tool's descriptor exactly as written in its document, where the document was read from
   * text: two tools with the same text are the same tool, which spares comparing their schemas.
   */
  text?: string;
  /** Real JSON pointer of the tool inside its document (for line numbers). */
  pointer: string;
  title?: string;
  description?: string;
  /**
   * `read | write | app-only` where the document says so (our snapshot); tools/list documents do
   * not.
   */
  kind?: string;
  annotations?: JsonObject;
  /** The input schema exactly as the document declares it (`$ref`s kept): what a host reads. */
  declaredInput: unknown;
  /** Raw schemas after `$ref` inlining (descriptions kept), and their comparable forms. */
  rawInput: unknown;
  rawOutput: unknown;
  input: Schema;
  output: Schema;
  hasOutputSchema: boolean;
  /**
   * OAuth scopes required per security scheme, from `securitySchemes` or, when that is absent, the
   * Apps SDK mirror `_meta.securitySchemes`; undefined when the tool declares neither.
   */
  securitySchemes?: { type: string; scopes: string[] }[];
  /** Real JSON pointer of the security schemes read (top-level or under `_meta`). */
  securityPointer?: string;
  uiUri?: string;
  visibility?: string[];
  /** `execution.taskSupport` (MCP tasks: `forbidden`, `optional`, `required`), where declared. */
  taskSupport?: string;
  /**
   * The current tool that replaced this one (our snapshot's `supersededBy`): still callable
   * through its adapter, never listed nor part of a release package.
   */
  supersededBy?: string;
}

/** A contract side of a diff: a snapshot (ours) or any MCP server's tools/list. */
export interface ContractDoc extends SkillsAndListing {
  file: string;
  /** The document's JSON text as read, where it was read from text (for file:line locations). */
  text?: string;
  format: "snapshot" | "tools-list";
  packageVersion?: string;
  tools: Map<string, DiffTool>;
  envelopes: Map<string, { raw: unknown; schema: Schema; pointer: string }>;
  /** Actual sha256 of the bytes served under ui:// URIs, where the side knows them. */
  uiBytes: Map<string, string>;
  /**
   * On a development baseline (a git commit): tools whose every approving release is retired, so
   * removing them breaks no host (see `toolsFreedByRetirement`).
   */
  freedTools?: ReadonlySet<string>;
  /**
   * True when `uiBytes` lists every URI the side serves (a document with `uiResources`, or the
   * project's UI store): a URI missing from it is not served at all.
   */
  uiComplete?: boolean;
  /**
   * URIs the side must keep serving whatever the other side binds, and where that is recorded (the
   * project's `contracts/ui-activations.json`: every URI ever active, L10).
   */
  uiRequired?: Map<string, string>;
  /** The list result's own cache hint (MCP 2026-07-28 `ttlMs`, `cacheScope`), where it has one. */
  listingCache?: { ttlMs?: number; cacheScope?: string };
}

/** The UI resource a tool binds: `_meta.ui.resourceUri`, else OpenAI's `openai/outputTemplate`. */
export function uiBinding(meta: unknown): { uri?: string; visibility?: string[] } {
  if (!isObject(meta)) return {};
  const ui = isObject(meta.ui) ? meta.ui : {};
  const uri =
    typeof ui.resourceUri === "string"
      ? ui.resourceUri
      : typeof meta["openai/outputTemplate"] === "string"
        ? meta["openai/outputTemplate"]
        : undefined;
  const visibility = Array.isArray(ui.visibility)
    ? (ui.visibility as string[]).map(String).sort()
    : undefined;
  return { ...(uri ? { uri } : {}), ...(visibility ? { visibility } : {}) };
}

/** sha256 of a value's canonical JSON: the content hash used in fingerprints. */
export function contentHash(value: unknown): string {
  return canonicalSha256(value === undefined ? null : value);
}

/**
 * Parse a document into a diff side. Accepts our contract snapshot (`snapshotFormat`, `tools`,
 * `envelopes`, `plugin.packageVersion`), an MCP `tools/list` result (`{"tools":[…]}`, optionally
 * wrapped as a JSON-RPC `{"result":{…}}`, and with a `plugin.packageVersion` as an imported release
 * records it) or a bare array of tool descriptors.
 */
export function parseContractDoc(
  json: unknown,
  file: string,
  diagnostics: Diagnostic[],
  version?: string,
  /** Each tool's descriptor text, by position in the list, when the document was read as text. */
  toolTexts?: readonly string[],
): ContractDoc | undefined {
  const body =
    isObject(json) && isObject(json.result) && Array.isArray(json.result.tools)
      ? json.result
      : json;
  const list = Array.isArray(body)
    ? body
    : isObject(body) && Array.isArray(body.tools)
      ? body.tools
      : undefined;
  if (!list) {
    diagnostics.push(
      diagnose(CONTRACT_INPUT_INVALID, { variant: "noTools", file }, { file, pointer: "" }),
    );
    return undefined;
  }
  const isSnapshot = isObject(body) && typeof body.snapshotFormat === "string";
  const base = Array.isArray(body)
    ? ""
    : Array.isArray(json) || !isObject(json) || json === body
      ? "/tools"
      : "/result/tools";
  const tools = new Map<string, DiffTool>();
  // One finding per repeated name and one for all nameless tools, however long the list: a
  // hostile listing of 100 000 copies is one line, not 100 000.
  const repeated = new Map<string, { count: number; pointer: string }>();
  const nameless: string[] = [];
  list.forEach((entry: unknown, i: number) => {
    const pointer = `${base}/${i}`;
    if (!isObject(entry) || typeof entry.name !== "string") {
      nameless.push(pointer);
      return;
    }
    if (tools.has(entry.name)) {
      const seen = repeated.get(entry.name);
      if (seen) seen.count++;
      else repeated.set(entry.name, { count: 2, pointer });
      return;
    }
    const tool = toDiffTool(
      entry as JsonObject & { name: string },
      file,
      pointer,
      diagnostics,
      toolTexts?.length === list.length ? toolTexts[i] : undefined,
    );
    tools.set(entry.name, tool);
  });
  if (nameless.length)
    diagnostics.push(
      diagnose(
        CONTRACT_INPUT_INVALID,
        nameless.length === 1
          ? { variant: "noName", index: Number(nameless[0].split("/").pop()), file }
          : {
              variant: "noNames",
              index: Number(nameless[0].split("/").pop()),
              more: nameless.length - 1,
              file,
            },
        { file, pointer: nameless[0] },
      ),
    );
  for (const [tool, { count, pointer }] of repeated)
    diagnostics.push(
      diagnose(
        CONTRACT_INPUT_INVALID,
        count === 2 ? { variant: "twice", tool, file } : { variant: "times", tool, count, file },
        { file, pointer },
      ),
    );
  const envelopes = new Map<string, { raw: unknown; schema: Schema; pointer: string }>();
  if (isSnapshot && isObject(body.envelopes)) {
    for (const [name, schema] of Object.entries(body.envelopes)) {
      const pointer = `/envelopes/${name}`;
      const raw = inlineRefs(schema, file, pointer, diagnostics);
      envelopes.set(name, { raw, schema: comparable(raw), pointer });
    }
  }
  // Our snapshot declares its package version; so does the tools/list document an imported
  // release records (`record-published --import`), which carries no envelopes.
  const declared =
    isObject(body) && isObject(body.plugin) && typeof body.plugin.packageVersion === "string"
      ? body.plugin.packageVersion
      : undefined;
  const uiBytes = new Map<string, string>();
  if (isObject(body) && isObject(body.uiResources))
    for (const [uri, sha] of Object.entries(body.uiResources))
      if (typeof sha === "string") uiBytes.set(uri, sha.replace(/^sha256[-:]/, ""));
  return {
    file,
    format: isSnapshot ? "snapshot" : "tools-list",
    packageVersion: version ?? declared,
    tools,
    envelopes,
    uiBytes,
    ...(isObject(body) && isObject(body.uiResources) ? { uiComplete: true } : {}),
    ...listingCacheOf(body),
    ...(isSnapshot ? skillsAndListingOf(body) : {}),
  };
}

/** `ttlMs` / `cacheScope` of a list result, when it carries either. */
function listingCacheOf(body: unknown): Pick<ContractDoc, "listingCache"> {
  if (!isObject(body)) return {};
  const ttlMs = typeof body.ttlMs === "number" ? body.ttlMs : undefined;
  const cacheScope = typeof body.cacheScope === "string" ? body.cacheScope : undefined;
  if (ttlMs === undefined && cacheScope === undefined) return {};
  return {
    listingCache: {
      ...(ttlMs !== undefined && { ttlMs }),
      ...(cacheScope !== undefined && { cacheScope }),
    },
  };
}

function toDiffTool(
  entry: JsonObject & { name: string },
  file: string,
  pointer: string,
  diagnostics: Diagnostic[],
  text: string | undefined,
): DiffTool {
  // A descriptor whose text holds no "$ref" has nothing to inline: no need to walk its schemas.
  const inline = (schema: unknown, at: string) =>
    text !== undefined && !text.includes('"$ref"')
      ? schema
      : inlineRefs(schema, file, at, diagnostics);
  const rawInput = inline(entry.inputSchema ?? { type: "object" }, `${pointer}/inputSchema`);
  const rawOutput =
    entry.outputSchema === undefined ? true : inline(entry.outputSchema, `${pointer}/outputSchema`);
  const ui = uiBinding(entry._meta);
  // Clients such as the MCP Inspector and the SDK clients drop the top-level field from tools/list
  // but keep `_meta`, where servers following the Apps SDK convention mirror it.
  const metaSchemes = isObject(entry._meta) ? entry._meta.securitySchemes : undefined;
  const [rawSchemes, securityPointer] = Array.isArray(entry.securitySchemes)
    ? [entry.securitySchemes, `${pointer}/securitySchemes`]
    : Array.isArray(metaSchemes)
      ? [metaSchemes, `${pointer}/_meta/securitySchemes`]
      : [undefined, undefined];
  const schemes = rawSchemes?.filter(isObject).map((s) => ({
    type: String(s.type),
    scopes: Array.isArray(s.scopes) ? (s.scopes as unknown[]).map(String).sort() : [],
  }));
  // Comparable forms are built on first use: most tools of a large contract are byte-identical on
  // both sides and never need one (rules compare the raw schemas first).
  let input: Schema | undefined, output: Schema | undefined;
  return {
    name: entry.name,
    ...(text !== undefined ? { text } : {}),
    pointer,
    get input() {
      input ??= comparable(rawInput);
      return input;
    },
    get output() {
      output ??= comparable(rawOutput);
      return output;
    },
    ...(typeof entry.title === "string" ? { title: entry.title } : {}),
    ...(typeof entry.description === "string" ? { description: entry.description } : {}),
    ...(typeof entry.kind === "string" ? { kind: entry.kind } : {}),
    ...(typeof entry.supersededBy === "string" ? { supersededBy: entry.supersededBy } : {}),
    ...(isObject(entry.annotations) ? { annotations: entry.annotations } : {}),
    declaredInput: entry.inputSchema,
    rawInput,
    rawOutput,
    hasOutputSchema: entry.outputSchema !== undefined,
    ...(schemes ? { securitySchemes: schemes, securityPointer } : {}),
    ...(ui.uri ? { uiUri: ui.uri } : {}),
    ...(isObject(entry.execution) && typeof entry.execution.taskSupport === "string"
      ? { taskSupport: entry.execution.taskSupport }
      : {}),
    ...(ui.visibility ? { visibility: ui.visibility } : {}),
  };
}

const sameCache = new WeakMap<DiffTool, WeakMap<DiffTool, { input: boolean; output: boolean }>>();

/**
 * True when a tool's raw input (or output) schema is identical on both sides; memoized per tool
 * pair.
 */
export function sameRawSchema(before: DiffTool, after: DiffTool, key: "input" | "output"): boolean {
  let inner = sameCache.get(before);
  if (!inner) {
    inner = new WeakMap();
    sameCache.set(before, inner);
  }
  let entry = inner.get(after);
  if (!entry && before.text !== undefined && before.text === after.text)
    entry = { input: true, output: true };
  if (!entry) {
    entry = {
      input: jsonEqual(before.rawInput, after.rawInput),
      output: jsonEqual(before.rawOutput, after.rawOutput),
    };
    inner.set(after, entry);
  }
  return entry[key];
}
