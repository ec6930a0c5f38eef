import semver from "semver";
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
  if (!oldVersion || !newVersion || !semver.valid(oldVersion) || !semver.valid(newVersion))
    return undefined;
  if (semver.lte(newVersion, oldVersion)) return "none";
  const d = semver.diff(oldVersion, newVersion);
  if (d === "major" || d === "premajor") return "major";
  if (d === "minor" || d === "preminor") return "minor";
  return "patch";
}
