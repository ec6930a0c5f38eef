import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule-table.js";
import { sha256Hex } from "../../contract/file-tree/sha256-manifest.js";
import { projectLayout, publishedDir, releaseFiles } from "../../contract/project-layout.js";
import type { ReleaseIndex } from "../publish/release-index.js";
import { parseUiUri, retainedUiPath } from "../../contract/ui-uri.js";

export const UI_NOT_RETAINED = defineRule({
  id: "UI_NOT_RETAINED",
  severity: "error",
  summary: "A UI URI that was published is no longer retained under contracts/ui/ (L10).",
});
export const UI_BYTES_CHANGED = defineRule({
  id: "UI_BYTES_CHANGED",
  severity: "error",
  summary: "The retained bytes of a published UI URI no longer hash to its address (L10).",
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
            `${entry.version}: ${uri} is not a content-addressed UI URI`,
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
            `${uri} (${name}, published in ${entry.version}) is missing: ${rel}`,
            { file: rel },
            { data },
          ),
        );
        continue;
      }
      if (sha256Hex(retained) !== parsed.sha256)
        out.push(
          diagnose(
            UI_BYTES_CHANGED,
            `${rel} no longer hashes to its address`,
            { file: rel },
            { data },
          ),
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
            `${rel} differs from the copy published in ${entry.version}`,
            { file: rel },
            { data },
          ),
        );
    }
  return out;
}
