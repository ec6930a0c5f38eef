import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Location } from "../../diagnostics/diagnostic.js";
import { escapePointerSegment } from "../../diagnostics/diagnostic.js";
import { pointerSegments } from "../../diagnostics/locate.js";
import type { ContractDoc } from "../../contract-model/contract-doc.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { isObject } from "../../json-schema/walk.js";

interface SourceFile {
  file: string;
  json: unknown;
}

// Where each part of a snapshot tool descriptor is written in its `schemas/tools/<tool>.json`.
const toolFields: [RegExp, string][] = [
  [/^\/inputSchema(?=\/|$)/, "/input"],
  [/^\/outputSchema(?=\/|$)/, "/output"],
  [/^\/(_meta\/)?securitySchemes(?=\/|$).*/, "/scopes"],
  [/^\/_meta\/ui\/visibility(?=\/|$).*/, "/visibility"],
  [/^\/_meta(?=\/|$).*/, "/ui"],
];

async function readSources(root: string, dir: string): Promise<SourceFile[]> {
  const names = await readdir(path.join(root, dir)).catch(() => [] as string[]);
  const out: SourceFile[] = [];
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const file = `${dir}/${name}`;
    const json = await readFile(path.join(root, file), "utf8")
      .then((t) => JSON.parse(t) as unknown)
      .catch(() => undefined);
    if (json !== undefined) out.push({ file, json });
  }
  return out;
}

/** The longest prefix of `pointer` that exists in `json` (a `$ref` node stops the walk). */
function deepestExisting(json: unknown, pointer: string): string {
  let node = json;
  let found = "";
  for (const seg of pointerSegments(pointer)) {
    const next = Array.isArray(node)
      ? node[Number(seg)]
      : isObject(node) && seg in node
        ? node[seg]
        : undefined;
    if (next === undefined) break;
    node = next;
    found += `/${escapePointerSegment(seg)}`;
  }
  return found;
}

/**
 * Map locations inside the project's generated snapshot back to the schema files a developer
 * edits: a finding on `/tools/3/inputSchema/properties/x` of the snapshot points at `/input/
 * properties/x` of `schemas/tools/<tool>.json` (or the nearest node written there, such as the
 * `$ref` it came through); envelopes at their `schemas/envelopes/*.schema.json`, the plugin identity
 * at `schemas/plugin.json`. Other locations are returned unchanged.
 */
export async function snapshotToSources(
  root: string,
  snapshot: ContractDoc,
): Promise<(location: Location) => Location> {
  const [tools, envelopes, schemas] = await Promise.all([
    readSources(root, `${projectLayout.schemasDir}/tools`),
    readSources(root, `${projectLayout.schemasDir}/envelopes`),
    readSources(root, projectLayout.schemasDir),
  ]);
  const plugin = schemas.find((s) => s.file === projectLayout.pluginFile);
  const toolFile = new Map<string, SourceFile>();
  for (const t of tools) if (isObject(t.json)) toolFile.set(String(t.json.name), t);
  const envelopeFile = new Map<string, SourceFile>();
  for (const e of envelopes) if (isObject(e.json)) envelopeFile.set(String(e.json.title), e);
  const toolAt = new Map([...snapshot.tools.values()].map((t) => [t.pointer, t.name]));
  return (location) => {
    if (location.file !== snapshot.file || !location.pointer) return location;
    const tool = /^\/tools\/\d+/.exec(location.pointer);
    if (tool) {
      const source = toolFile.get(toolAt.get(tool[0]) ?? "");
      if (!source) return location;
      let rest = location.pointer.slice(tool[0].length);
      for (const [from, to] of toolFields)
        if (from.test(rest)) {
          rest = rest.replace(from, to);
          break;
        }
      return { file: source.file, pointer: deepestExisting(source.json, rest) };
    }
    if (location.pointer.startsWith("/plugin/") && plugin)
      return {
        file: plugin.file,
        pointer: deepestExisting(plugin.json, location.pointer.slice("/plugin".length)),
      };
    const envelope = /^\/envelopes\/([^/]+)/.exec(location.pointer);
    const source = envelope && envelopeFile.get(envelope[1]);
    if (!envelope || !source) return location;
    const rest = location.pointer.slice(envelope[0].length);
    return { file: source.file, pointer: deepestExisting(source.json, rest) };
  };
}
