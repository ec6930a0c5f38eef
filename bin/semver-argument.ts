import { createRequire } from "node:module";
import { InvalidArgumentError } from "commander";

const require = createRequire(import.meta.url);

/**
 * A version given on the command line (`freeze X`, `diff --old-version X`, …): exactly a SemVer
 * version such as 1.2.0, or a usage error (exit 2) before the command reads anything. semver is
 * loaded on the first such argument, not with the command tree every run builds (`--help` too).
 */
export function semverArgument(value: string): string {
  const semver = require("semver") as typeof import("semver");
  if (semver.valid(value) !== value)
    throw new InvalidArgumentError(`expected a SemVer version such as 1.2.0, got "${value}".`);
  return value;
}
