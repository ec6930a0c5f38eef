// Mocha's spec reporter, followed by the plain closing line CI recognises: "N passed, N failed".
// Before it, when a run spans more than one spec file, the slowest files with their wall time (their
// top-level suites' hooks and tests), so a slow file shows up in every CI log. SKILLPILOT_FILE_TIMES=path
// also writes every file's time there ("seconds<TAB>file", slowest first).
"use strict";
const { writeFileSync } = require("node:fs");
const path = require("node:path");
const Mocha = require("mocha");
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

/** How many of the slowest files the closing block lists. */
const SLOWEST = 12;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    /** @type {Map<string, number>} milliseconds per spec file */
    const perFile = new Map();
    /** @type {Map<object, number>} */
    const started = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent?.root && suite.file) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const t0 = started.get(suite);
      if (t0 === undefined) return;
      started.delete(suite);
      perFile.set(suite.file, (perFile.get(suite.file) ?? 0) + Date.now() - t0);
    });
    runner.once(EVENT_RUN_END, () => {
      const rows = [...perFile].sort((a, b) => b[1] - a[1]);
      const rel = (file) => path.relative(process.cwd(), file);
      const line = ([file, ms]) => `${(ms / 1000).toFixed(1)}\t${rel(file)}`;
      if (process.env.SKILLPILOT_FILE_TIMES)
        writeFileSync(process.env.SKILLPILOT_FILE_TIMES, `${rows.map(line).join("\n")}\n`);
      if (rows.length > 1)
        process.stdout.write(
          `\nslowest files (s):\n${rows.slice(0, SLOWEST).map(line).join("\n")}\n`,
        );
      const s = runner.stats || {};
      const skipped = s.pending ? `, ${s.pending} skipped` : "";
      process.stdout.write(`\n${s.passes || 0} passed, ${s.failures || 0} failed${skipped}\n`);
    });
  }
}
module.exports = SummaryReporter;
