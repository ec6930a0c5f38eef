import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import {
  projectLayout,
  publishedDir,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import type { ReleaseIndex } from "../../contract-model/release/release-index.js";
import { parseUiUri, retainedUiPath } from "../../contract-model/ui/ui-uri.js";

export const UI_NOT_RETAINED = defineRule({
  id: "UI_NOT_RETAINED",
  family: "release",
  severity: "error",
  summary:
    "A UI URI that was ever active or published is no longer retained under contracts/ui/ (L10).",
  message: {
    notAddressed: "{version}: {uri} is not a content-addressed UI URI",
    missing: "{uri} ({name}, published in {version}) is missing: {file}",
    activated:
      "{uri} ({name}, recorded as active in {record}) is missing: {file}; restore it from git, it is served for good",
  },
});
export const UI_BYTES_CHANGED = defineRule({
  id: "UI_BYTES_CHANGED",
  family: "release",
  severity: "error",
  summary:
    "The retained bytes of a UI URI that was ever active or published no longer hash to its " +
    "address (L10).",
  message: {
    hash: "{file} no longer hashes to its address",
    copy: "{file} differs from the copy published in {version}",
  },
});

/**
 * Every UI URI any published version bound still resolves to identical bytes (L10): the retained
 * copy exists, hashes to its address, and equals the copy inside the published package.
 */
export async function checkUiRetention(
  root: string,
  plugin: string,
  index: ReleaseIndex,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const entry of index.releases)
    for (const [name, uri] of Object.entries(entry.ui ?? {})) {
      const rel = retainedUiPath(uri);
      const parsed = parseUiUri(uri);
      const data = { version: entry.version, uri };
      if (!rel || !parsed) {
        out.push(
          diagnose(
            UI_NOT_RETAINED,
            { variant: "notAddressed", version: entry.version, uri },
            { file: projectLayout.releaseIndex },
            { data },
          ),
        );
        continue;
      }
      const retained = await readFile(path.join(root, rel)).catch(() => undefined);
      if (!retained) {
        out.push(
          diagnose(
            UI_NOT_RETAINED,
            { variant: "missing", uri, name, version: entry.version, file: rel },
            { file: rel },
            { data },
          ),
        );
        continue;
      }
      if (sha256Hex(retained) !== parsed.sha256)
        out.push(
          diagnose(UI_BYTES_CHANGED, { variant: "hash", file: rel }, { file: rel }, { data }),
        );
      const shipped = await readFile(
        path.join(
          root,
          publishedDir(plugin, entry.version),
          releaseFiles.packageDir,
          "ui",
          name,
          "index.html",
        ),
      ).catch(() => undefined);
      if (shipped && !shipped.equals(retained))
        out.push(
          diagnose(
            UI_BYTES_CHANGED,
            { variant: "copy", file: rel, version: entry.version },
            { file: rel },
            { data },
          ),
        );
    }
  return out;
}
