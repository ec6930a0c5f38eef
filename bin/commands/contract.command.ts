import type { Command } from "commander";
import { exitCodesHelp } from "../exit-codes.js";
import { projectPaths } from "./root.js";

/** `skillpilot contract show [--json]`: the contract as generated. */
export function registerContractCommand(program: Command): void {
  const contract = program
    .command("contract")
    .summary("Inspect the generated contract")
    .description("Inspect the contract as generated from schemas/.")
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  contract
    .command("show")
    .summary("Print the contract's identity, line and tools")
    .description(
      "Print the contract summary (identity, version layers, line policy, tools " +
        "with kind and annotations) from generated/contract.snapshot.json.",
    )
    .option("--json", "print the canonical snapshot JSON instead")
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "printed",
        usage: "usage error, or generated/contract.snapshot.json missing or unreadable",
      }),
    )
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { readSnapshot } = await import("../../contract-model/snapshot.js");
      const { contractSummary } = await import("../../contract-model/summary.js");
      const snapshot = await readSnapshot(projectPaths(command).root);
      process.stdout.write(
        opts.json ? `${JSON.stringify(snapshot, null, 2)}\n` : contractSummary(snapshot),
      );
    });
}
