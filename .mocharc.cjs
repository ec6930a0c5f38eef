// Mocha's configuration. Mocha adds the spec files named on its command line to a `spec` set in
// its configuration instead of replacing them, so `spec` (the whole suite) is set only when the
// command line names none: `npx mocha` runs every test, `npx mocha test/x/y.test.ts` (or a folder,
// a glob, `--spec …`) runs only those.
"use strict";
const path = require("node:path");

/** The whole suite: what `npm test` and a bare `npx mocha` run. */
const SUITE = "test/**/*.test.ts";
/** Mocha options that take a value as the next argument (that value is not a spec). */
const VALUED = new Set([
  ...["-g", "--grep", "-f", "--fgrep", "-t", "--timeout", "--timeouts", "-s", "--slow"],
  ...["-R", "--reporter", "-O", "--reporter-option", "--reporter-options", "-r", "--require"],
  ...["-u", "--ui", "--config", "--package", "--ignore", "--exclude", "--extension", "--file"],
  ...["-j", "--jobs", "--retries", "-n", "--node-option", "--import"],
  ...["--watch-files", "--watch-ignore"],
]);

/** Whether mocha's command line (the arguments after its script) names spec files. */
function namesSpecs(argv) {
  // node_modules/.bin/mocha, mocha/bin/mocha.js, or the CLI a spawned mocha process runs.
  const script = argv.findIndex(
    (a, i) =>
      i > 0 &&
      (/(^|[\\/])_?mocha(\.js)?$/.test(a) || /[\\/]mocha[\\/]lib[\\/]cli[\\/]cli\.js$/.test(a)),
  );
  if (script < 0) return false;
  for (let i = script + 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return i + 1 < argv.length;
    if (arg === "--spec" || arg.startsWith("--spec=")) return true;
    if (VALUED.has(arg)) i++;
    else if (!arg.startsWith("-")) return true;
  }
  return false;
}

module.exports = {
  "node-option": ["import=tsx"],
  require: [path.join("test", "support", "temp-dir-guard.cjs")],
  ...(namesSpecs(process.argv) ? {} : { spec: [SUITE] }),
  reporter: path.join("test", "support", "summary-reporter.cjs"),
  timeout: 20000,
  // A folder on the command line means its *.test.ts files (with mocha's own js, cjs, mjs).
  extension: ["test.ts"],
  recursive: true,
};
