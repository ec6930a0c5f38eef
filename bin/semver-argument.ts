import { InvalidArgumentError } from "commander";
import semver from "semver";

/**
 * A version given on the command line (`freeze X`, `diff --old-version X`, …): exactly a SemVer
 * version such as 1.2.0, or a usage error (exit 2) before the command reads anything.
 */
export function semverArgument(value: string): string {
  if (semver.valid(value) !== value)
    throw new InvalidArgumentError(`expected a SemVer version such as 1.2.0, got "${value}".`);
  return value;
}
