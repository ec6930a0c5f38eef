import { sha256Hex } from "../../contract-model/canonical.js";
import { canonicalize, type CanonicalLimits } from "./canonical-json.js";

/** The tool `_meta` key the per-tool digest draft gives a tool's digest. */
export const digestMetaKey = "io.modelcontextprotocol/digest";

/** A digest or tag as this project writes them: `sha256:` and 64 lowercase hex digits. */
export const sha256TagPattern = /^sha256:[0-9a-f]{64}$/;

/** True for a `sha256:<64 lowercase hex>` string. */
export const isSha256Tag = (value: unknown): value is string =>
  typeof value === "string" && sha256TagPattern.test(value);

/**
 * A tool definition's digest: `sha256:` + the lowercase hex SHA-256 of the RFC 8785 canonical JSON
 * of the tool with its top-level `_meta` removed. Equal definitions give equal digests however
 * their members are ordered, and a change confined to `_meta` (widget keys, a lane's projection,
 * the digest itself) leaves it unchanged. Throws `CanonicalJsonError` for a value JSON cannot
 * carry, TypeError for a tool that is not an object with a string `name`.
 */
export function toolDigest(tool: unknown, limits?: CanonicalLimits): string {
  if (tool === null || typeof tool !== "object" || Array.isArray(tool))
    throw new TypeError("a tool definition is a JSON object");
  const { _meta: _ignored, ...definition } = tool as Record<string, unknown>;
  if (typeof definition.name !== "string")
    throw new TypeError("a tool definition needs a string name");
  return `sha256:${sha256Hex(canonicalize(definition, limits))}`;
}

/**
 * The tool as a server lists it with its digest: the same definition, `_meta` extended by
 * `io.modelcontextprotocol/digest` (every other `_meta` member kept). The input is not changed.
 */
export function withToolDigest<T extends Record<string, unknown>>(tool: T): T {
  const meta =
    tool._meta !== null && typeof tool._meta === "object" && !Array.isArray(tool._meta)
      ? (tool._meta as Record<string, unknown>)
      : {};
  return { ...tool, _meta: { ...meta, [digestMetaKey]: toolDigest(tool) } };
}
