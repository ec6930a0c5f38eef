import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  retiredDefinitionsFormat,
  retiredReleases,
  type Retirement,
} from "../../evolution/approved-definitions.js";
import { canonicalJson } from "../../contract-model/canonical.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { readReleaseIndex } from "../../contract-model/release/release-index.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import type { ReleaseStepResult } from "../freeze/freeze.js";
import { openStatement } from "../statement/approved-statement.js";

export const RETIRE_UNPUBLISHED = defineRule({
  id: "RETIRE_UNPUBLISHED",
  family: "release",
  severity: "error",
  summary:
    "Only a release recorded in contracts/release-index.json has definitions hosts may hold, so " +
    "only such a release can be retired (L4).",
  message:
    "{version} was never published: {index} has no entry for it (published: {published}); nothing was retired",
});
export const RETIRE_REPEATED = defineRule({
  id: "RETIRE_REPEATED",
  family: "release",
  severity: "error",
  summary: "A release's definitions are retired once; the retirement record is append-only (L4).",
  message:
    "{version}'s definitions were already retired on {retiredAt} ({reason}); a retirement is never repeated or edited",
});
export const RETIRE_BEFORE_PUBLICATION = defineRule({
  id: "RETIRE_BEFORE_PUBLICATION",
  family: "release",
  severity: "error",
  summary: "A release's definitions cannot be retired before the release was published (L4).",
  message: "{version} was published on {publishedAt}; it cannot be retired on {retiredAt}",
});
export const RETIRED_DEFINITIONS_INVALID = defineRule({
  id: "RETIRED_DEFINITIONS_INVALID",
  family: "release",
  severity: "error",
  summary:
    "contracts/retired-definitions.json is unreadable, not a retirement record, or retires a " +
    "version that was never published or twice (L4).",
  message: {
    unreadable: "{file}: {error}",
    unknown: "{file}: retirement #{index} names {version}, which the release index does not hold",
    twice: "{file}: {version} is retired twice (#{first} and #{index})",
    shape:
      "{file}: retirement #{index} needs a version, a non-empty reason and a YYYY-MM-DD retiredAt",
  },
});

/**
 * `skillpilot retire-definitions X --reason …`: record that no host holds the tool definitions of
 * published release X any longer (their approval was replaced), so gates and the server stop
 * treating them as live. Append-only: an unknown version, a second retirement or a date before the
 * publication is refused, and nothing is written then. An empty reason is the caller's usage error.
 */
export async function retireDefinitions(
  root: string,
  version: string,
  reason: string,
  options: { retiredAt?: string; now?: Date; releaseKey?: string } = {},
): Promise<ReleaseStepResult> {
  if (!reason.trim()) throw new RangeError("a retirement needs a non-empty reason");
  const file = projectLayout.retiredDefinitions;
  let retired: Retirement[];
  try {
    retired = await retiredReleases(root);
  } catch (e) {
    return {
      diagnostics: [
        diagnose(
          RETIRED_DEFINITIONS_INVALID,
          { variant: "unreadable", file, error: (e as Error).message },
          { file },
        ),
      ],
    };
  }
  const index = await readReleaseIndex(root);
  const entry = index.releases.find((r) => r.version === version);
  if (!entry)
    return {
      diagnostics: [
        diagnose(
          RETIRE_UNPUBLISHED,
          {
            version,
            index: projectLayout.releaseIndex,
            published: index.releases.map((r) => r.version).join(", ") || "none",
          },
          { file: projectLayout.releaseIndex },
        ),
      ],
    };
  const earlier = retired.find((r) => r.version === version);
  if (earlier)
    return {
      diagnostics: [
        diagnose(
          RETIRE_REPEATED,
          { version, retiredAt: earlier.retiredAt, reason: earlier.reason },
          { file },
        ),
      ],
    };
  const retiredAt = options.retiredAt ?? (options.now ?? new Date()).toISOString().slice(0, 10);
  if (retiredAt < entry.publishedAt)
    return {
      diagnostics: [
        diagnose(
          RETIRE_BEFORE_PUBLICATION,
          { version, publishedAt: entry.publishedAt, retiredAt },
          { file: projectLayout.releaseIndex },
        ),
      ],
    };
  const statement = await openStatement(root, { keyFile: options.releaseKey });
  if (!statement.writer) return { diagnostics: statement.diagnostics };
  const abs = path.join(root, file);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(
    abs,
    canonicalJson({
      format: retiredDefinitionsFormat,
      retirements: [...retired, { version, reason, retiredAt }],
    }),
  );
  const signed = await statement.writer.append({ kind: "retired", version }, retiredAt);
  return {
    diagnostics: [],
    outcome: "done",
    message: `retired the definitions of ${version} on ${retiredAt} in ${file}\n${signed}`,
  };
}
