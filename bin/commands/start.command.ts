import type { Command } from "commander";
import { readSnapshot } from "../../contract/snapshot.js";
import { contractSummary } from "../../contract/summary.js";
import { projectPaths } from "./root.js";

/** `skillpilot start`: what `npm start` runs. */
export function registerStartCommand(program: Command): void {
  program
    .command("start")
    .description("Start SkillPilot Coach (prints the contract summary until the runtime is available).")
    .action(async (_opts: unknown, command: Command) => {
      process.stdout.write(contractSummary(await readSnapshot(projectPaths(command).root)));
    });
}
