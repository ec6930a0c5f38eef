import { defineRule } from "../../../diagnostics/rule.js";
import type { DiffCheck } from "../diff-rule.js";

const bytesChanged = defineRule({
  id: "UI_IMMUTABLE_BYTES_CHANGED",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "Bytes changed under a ui:// URI that was already served; every served URI " +
    "stays byte-identical. Blocks; not waivable.",
  message:
    "bytes under {uri} changed (published sha256 {published}…, now {served}…); publish the change under a new content-addressed URI",
  waivable: false,
});

const servedUriMissing = defineRule({
  id: "UI_SERVED_URI_MISSING",
  family: "diff",
  bump: "major",
  severity: "error",
  summary:
    "A ui:// URI that was served (bound by the old contract, or recorded as ever active) is no " +
    "longer served at all; every served URI stays readable. Blocks; not waivable.",
  message:
    "{uri} was served ({why}) but the new side no longer serves it; restore its bytes (e.g. contracts/ui/ from git), a served URI stays readable for good",
  waivable: false,
});

/** The content hash a content-addressed URI names (`…/sha256-<hex>/…`), if any. */
export function uriHash(uri: string): string | undefined {
  return /\/sha256-([0-9a-f]{64})(?:\/|$)/i.exec(uri)?.[1]?.toLowerCase();
}

/**
 * Immutable UI bytes (L10): for every URI the old contract bound or listed, and every URI the new
 * side records as ever active, the bytes the new side serves under it must hash to what was
 * published (the old side's known hash, else the hash the URI itself names); a side that lists
 * everything it serves must still serve each of them.
 */
export const uiBytes: DiffCheck = {
  rules: [bytesChanged, servedUriMissing],
  check(ctx, report) {
    const uris = new Map<string, string>();
    for (const t of ctx.old.tools.values())
      if (t.uiUri) uris.set(t.uiUri, `bound by ${t.name} in ${ctx.old.file}`);
    for (const uri of ctx.old.uiBytes.keys())
      if (!uris.has(uri)) uris.set(uri, `listed in ${ctx.old.file}`);
    for (const [uri, where] of ctx.new.uiRequired ?? [])
      if (!uris.has(uri)) uris.set(uri, `recorded as active in ${where}`);
    for (const [uri, why] of [...uris].sort()) {
      const served = ctx.new.uiBytes.get(uri);
      if (!served && ctx.new.uiComplete) {
        report(
          servedUriMissing,
          { uri, why },
          {
            pointer: `/ui/${uri}`,
            at: { side: "new", pointer: "" },
            witness: {
              kind: "fact",
              acceptedBy: "old",
              rejectedBy: "new",
              value: { uri, served: false },
              verified: true,
            },
            before: uriHash(uri) ?? uri,
            after: null,
          },
        );
        continue;
      }
      const published = ctx.old.uiBytes.get(uri) ?? uriHash(uri);
      if (!served || !published || served === published) continue;
      const params = { uri, published: published.slice(0, 12), served: served.slice(0, 12) };
      report(bytesChanged, params, {
        pointer: `/ui/${uri}`,
        at: { side: "new", pointer: "" },
        witness: {
          kind: "fact",
          acceptedBy: "old",
          rejectedBy: "new",
          value: { uri, publishedSha256: published, servedSha256: served },
          verified: true,
        },
        before: published,
        after: served,
      });
    }
  },
};
