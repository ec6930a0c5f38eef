import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  ambiguousRenames,
  changelogEntries,
  type GoldenFile,
  goldenDrift,
  goldenPaths,
  goldenUpdate,
  recordVerdicts,
} from "../checks/diff/coverage/golden.js";

// `npm run diff:golden`: recompute every recorded diff (generated edits, the project's corpus,
// the shared real-change corpus when present, published release pairs) and fail on any change of
// verdict, bump or finding fingerprint. `--update` rewrites the golden file, and refuses unless
// docs/diff-verdict-changes.md has a new entry and every changed fingerprint is mapped in
// checks/diff/fingerprint-renames.json (so waivers keep matching).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const at = (p: string) => path.join(root, p);

const started = Date.now();
const { verdicts, optional } = recordVerdicts(root);
const golden: GoldenFile = existsSync(at(goldenPaths.golden))
  ? JSON.parse(readFileSync(at(goldenPaths.golden), "utf8"))
  : { format: "skillpilot-diff-golden/1", changelogEntries: 0, verdicts: {} };

if (process.argv.includes("--update")) {
  const changelog = existsSync(at(goldenPaths.changelog))
    ? changelogEntries(readFileSync(at(goldenPaths.changelog), "utf8"))
    : 0;
  const renames = JSON.parse(readFileSync(at(goldenPaths.renames), "utf8")).renames;
  const outcome = goldenUpdate(golden, verdicts, optional, changelog, renames);
  for (const a of ambiguousRenames(golden, verdicts))
    console.log(`note: no rename for ${a}: a waiver on it matched several findings`);
  if ("refused" in outcome) {
    console.error(`refused: ${outcome.refused}`);
    for (const u of outcome.unmapped?.slice(0, 20) ?? []) console.error(`  ${u}`);
    process.exitCode = outcome.unmapped || !outcome.refused.startsWith("no verdict") ? 1 : 0;
  } else {
    writeFileSync(at(goldenPaths.golden), outcome.text);
    console.log(`updated ${goldenPaths.golden}: ${outcome.changes} verdict changes recorded`);
  }
} else {
  const drift = goldenDrift(golden, verdicts, optional);
  const changes = [
    ...drift.changed.map((id) => `changed: ${id}`),
    ...drift.added.map((id) => `new: ${id}`),
    ...drift.removed.map((id) => `gone: ${id}`),
  ];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `checked ${drift.checked} recorded diffs in ${seconds} s: ${changes.length} changed` +
      (drift.skipped
        ? ` (${drift.skipped} of the shared real-change corpus skipped: not present)`
        : ""),
  );
  for (const c of changes.slice(0, 50)) console.error(c);
  if (changes.length > 50) console.error(`… and ${changes.length - 50} more`);
  if (changes.length)
    console.error(
      "verdicts changed: if intended, add an entry to docs/diff-verdict-changes.md and run `npm run diff:golden -- --update`",
    );
  process.exitCode = changes.length ? 1 : 0;
}
