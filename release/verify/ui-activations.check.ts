import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { readUiActivations, type UiActivation } from "../../contract-model/ui/ui-store.js";
import { parseUiUri, retainedUiPath } from "../../contract-model/ui/ui-uri.js";
import type { FileVersion } from "../../contract-model/history/git-history.js";
import type { ReleaseIndex } from "../../contract-model/release/release-index.js";
import { UI_BYTES_CHANGED, UI_NOT_RETAINED } from "./ui-retention.check.js";

const UI_ACTIVATION_UNRECORDED = defineRule({
  id: "UI_ACTIVATION_UNRECORDED",
  family: "release",
  severity: "error",
  summary:
    "A UI URI that was active or published is missing from contracts/ui-activations.json, the " +
    "record that makes a lost store file detectable (L10).",
  message: {
    unreadable: "{record}: {error}",
    missing:
      "{uri} ({name}) was {how} but {record} does not record it; run `skillpilot ui build --activate` (or restore the record from git)",
  },
});

const URI_LINE =
  /^\s*"([a-z0-9-]+)"\s*:\s*"(ui:\/\/skillpilot\/coach\/[1-9][0-9]*\/sha256-[0-9a-f]{64}\/index\.html)"/;

/**
 * URIs the committed versions of `release/line.json` ever bound (oldest first, as verify read them
 * from git; a shallow clone gives what it has), each with the first commit that bound it.
 * Independent of the record and of the store, so deleting both an entry and its file is still
 * detected.
 */
function activeInGitHistory(
  lineVersions: readonly FileVersion[],
): Map<string, { name: string; commit: string }> {
  const out = new Map<string, { name: string; commit: string }>();
  for (const version of lineVersions)
    for (const line of version.text.split("\n")) {
      const m = URI_LINE.exec(line);
      if (m && !out.has(m[2])) out.set(m[2], { name: m[1], commit: version.commit.slice(0, 12) });
    }
  return out;
}

/**
 * Every UI URI that was ever active stays readable with identical bytes (L10): each URI of
 * `contracts/ui-activations.json` is retained and hashes to its address, and the record is complete
 * — it holds every URI `release/line.json` binds now, every URI a published version bound, and
 * every URI the line's git history ever bound.
 */
export async function checkUiActivations(
  root: string,
  index: ReleaseIndex,
  lineVersions: readonly FileVersion[],
): Promise<Diagnostic[]> {
  const record = projectLayout.uiActivations;
  const out: Diagnostic[] = [];
  let activations: UiActivation[];
  try {
    activations = await readUiActivations(root);
  } catch (e) {
    return [
      diagnose(
        UI_ACTIVATION_UNRECORDED,
        { variant: "unreadable", record, error: (e as Error).message },
        { file: record },
      ),
    ];
  }
  const recorded = new Set(activations.map((a) => a.uri));
  for (const { uri, name } of activations) {
    const rel = retainedUiPath(uri);
    const parsed = parseUiUri(uri);
    const data = { uri };
    if (!rel || !parsed) {
      out.push(
        diagnose(
          UI_NOT_RETAINED,
          { variant: "notAddressed", version: record, uri },
          { file: record },
          { data },
        ),
      );
      continue;
    }
    const retained = await readFile(path.join(root, rel)).catch(() => undefined);
    if (!retained)
      out.push(
        diagnose(
          UI_NOT_RETAINED,
          { variant: "activated", uri, name, record, file: rel },
          { file: rel },
          { data },
        ),
      );
    else if (sha256Hex(retained) !== parsed.sha256)
      out.push(diagnose(UI_BYTES_CHANGED, { variant: "hash", file: rel }, { file: rel }, { data }));
  }
  const expected = new Map<string, { name: string; how: string }>();
  const line = await readFile(path.join(root, projectLayout.lineFile), "utf8")
    .then((t) => JSON.parse(t) as { activeUi?: Record<string, string> })
    .catch(() => undefined);
  for (const [name, uri] of Object.entries(line?.activeUi ?? {}))
    expected.set(uri, { name, how: `active in ${projectLayout.lineFile}` });
  for (const entry of index.releases)
    for (const [name, uri] of Object.entries(entry.ui ?? {}))
      if (!expected.has(uri)) expected.set(uri, { name, how: `published in ${entry.version}` });
  for (const [uri, { name, commit }] of activeInGitHistory(lineVersions))
    if (!expected.has(uri))
      expected.set(uri, { name, how: `active in ${projectLayout.lineFile} at commit ${commit}` });
  for (const [uri, { name, how }] of expected)
    if (!recorded.has(uri))
      out.push(
        diagnose(
          UI_ACTIVATION_UNRECORDED,
          { variant: "missing", uri, name, how, record },
          { file: record },
          { data: { uri } },
        ),
      );
  return out;
}
