/**
 * Hex sha256 of some bytes: the project's one implementation, re-exported for the release modules.
 */
export { sha256Hex } from "../canonical.js";

/** One line of a `sha256  path` manifest. */
export interface ManifestEntry {
  path: string;
  sha256: string;
}

/** The `sha256sum`-compatible manifest text: two spaces, sorted by UTF-8 path, trailing newline. */
export function renderSha256Manifest(entries: readonly ManifestEntry[]): string {
  const sorted = [...entries].sort((a, b) =>
    Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)),
  );
  return sorted.map((e) => `${e.sha256}  ${e.path}\n`).join("");
}

/** Parse a manifest written by `renderSha256Manifest`; malformed lines are returned separately. */
export function parseSha256Manifest(text: string): {
  entries: ManifestEntry[];
  malformed: string[];
} {
  const entries: ManifestEntry[] = [];
  const malformed: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) entries.push({ sha256: m[1], path: m[2] });
    else malformed.push(line);
  }
  return { entries, malformed };
}
