#!/usr/bin/env node
// Entry point of the `skillpilot` CLI: runs the compiled build. `npm install` builds it (the
// `prepare` script); after editing sources, `npm run build` (incremental) brings it up to date.
import { existsSync } from "node:fs";

const entry = new URL("../build/bin/skillpilot.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "skillpilot: the compiled CLI is missing; run `npm run build` (npm install runs it)\n",
  );
  process.exit(2);
}
await import(entry.href);
