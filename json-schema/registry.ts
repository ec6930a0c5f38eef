import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import { pointerSegments } from "../diagnostics/locate.js";
import type { SourceFile } from "./source.js";
import { isObject } from "./walk.js";

const MISSING_ID = defineRule({
  id: "SCHEMA_MISSING_ID",
  family: "generator",
  severity: "error",
  summary: "Every schema file declares a unique absolute $id.",
  message: "{file} has no absolute $id",
});
const DUPLICATE_ID = defineRule({
  id: "SCHEMA_DUPLICATE_ID",
  family: "generator",
  severity: "error",
  summary: "Two files declare the same $id.",
  message: "$id {id} is declared by both {first} and {second}",
});

/** Documents the resolver knows without a file: the draft 2020-12 meta-schema, built into ajv. */
export const builtInIds: ReadonlySet<string> = new Set([
  "https://json-schema.org/draft/2020-12/schema",
]);

/** Where a `$ref` landed: the document, its file, the pointer inside it and the node. */
export interface RefTarget {
  docId: string;
  file: string;
  pointer: string;
  node: unknown;
}

export type RefResolution =
  | { ok: true; target: RefTarget }
  | { ok: false; reason: "remote" | "unresolved" | "builtin" };

/**
 * Offline `$id` → document registry. Nothing is ever fetched: refs outside it are remote or
 * unresolved.
 */
export class SchemaRegistry {
  private readonly docs = new Map<string, SourceFile>();

  /** Register every source that has an `$id`; report missing and duplicate ids. */
  static build(sources: readonly SourceFile[]): {
    registry: SchemaRegistry;
    diagnostics: Diagnostic[];
  } {
    const registry = new SchemaRegistry();
    const diagnostics: Diagnostic[] = [];
    for (const source of sources) {
      const id = isObject(source.json) ? source.json.$id : undefined;
      if (typeof id !== "string" || !/^https?:\/\//.test(id)) {
        diagnostics.push(
          diagnose(MISSING_ID, { file: source.file }, { file: source.file, pointer: "" }),
        );
        continue;
      }
      const key = stripHash(id);
      const other = registry.docs.get(key);
      if (other) {
        diagnostics.push(
          diagnose(
            DUPLICATE_ID,
            { id: key, first: other.file, second: source.file },
            { file: source.file, pointer: "/$id" },
          ),
        );
        continue;
      }
      registry.docs.set(key, source);
    }
    return { registry, diagnostics };
  }

  /** Every registered document id. */
  ids(): string[] {
    return [...this.docs.keys()];
  }

  /** The source registered under a document id. */
  get(docId: string): SourceFile | undefined {
    return this.docs.get(stripHash(docId));
  }

  /** Resolve `ref` against the document `baseId` (JSON pointer fragments only). */
  resolve(ref: string, baseId: string): RefResolution {
    let url: URL;
    try {
      url = new URL(ref, baseId);
    } catch {
      return { ok: false, reason: "unresolved" };
    }
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ""));
    url.hash = "";
    const docId = url.href;
    if (builtInIds.has(docId)) return { ok: false, reason: "builtin" };
    const doc = this.docs.get(docId);
    if (!doc)
      return {
        ok: false,
        reason:
          docId.startsWith("https://skillpilot.com/") || url.protocol === "file:"
            ? "unresolved"
            : "remote",
      };
    if (fragment !== "" && !fragment.startsWith("/")) return { ok: false, reason: "unresolved" };
    let node: unknown = doc.json;
    for (const segment of pointerSegments(fragment)) {
      if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)];
      else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
      else return { ok: false, reason: "unresolved" };
    }
    return { ok: true, target: { docId, file: doc.file, pointer: fragment, node } };
  }
}

/** A document id without its fragment. */
export function stripHash(id: string): string {
  const i = id.indexOf("#");
  return i < 0 ? id : id.slice(0, i);
}
