// One function module each: the whole semver package is ~50 CommonJS files to load.
import validVersion from "semver/functions/valid.js";
import lteVersion from "semver/functions/lte.js";
import diffVersion from "semver/functions/diff.js";
import type { Bump } from "../../diagnostics/rule.js";

/** L6 classification of a change by the bump it needs. */
export type Classification = "server-only" | "PATCH" | "MINOR" | "incompatible";

const classes: Record<Bump, Classification> = {
  none: "server-only",
  patch: "PATCH",
  minor: "MINOR",
  major: "incompatible",
};

/** The L6 class of a required bump. */
export function classify(bump: Bump): Classification {
  return classes[bump];
}

/**
 * The bump a version change declares (`1.1.3` → `1.2.0` is `minor`); `none` when equal or lower,
 * undefined when either version is missing or not SemVer.
 */
export function declaredBump(
  oldVersion: string | undefined,
  newVersion: string | undefined,
): Bump | undefined {
  if (!oldVersion || !newVersion || !validVersion(oldVersion) || !validVersion(newVersion))
    return undefined;
  if (lteVersion(newVersion, oldVersion)) return "none";
  const d = diffVersion(oldVersion, newVersion);
  if (d === "major" || d === "premajor") return "major";
  if (d === "minor" || d === "preminor") return "minor";
  return "patch";
}
