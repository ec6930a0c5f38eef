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
        "with kind and annotations), the live approved definitions of each tool, and the " +
        "definition tag of the current listing and of each live approved set, per lane.",
    )
    .option("--json", "print the snapshot JSON with an approvedDefinitions member instead")
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "printed",
        usage:
          "usage error, generated/contract.snapshot.json missing or unreadable, or unreadable " +
          "release records",
      }),
    )
    .action(async (opts: { json?: boolean }, command: Command) => {
      const { readSnapshot } = await import("../../contract-model/snapshot.js");
      const { contractSummary } = await import("../../contract-model/summary.js");
      const { liveApprovedDefinitions } = await import("../../evolution/approved-definitions.js");
      const { approvedDefinitionsJson, approvedDefinitionsSummary } = await import(
        "../../evolution/approved-summary.js"
      );
      const { canonicalSha256 } = await import("../../contract-model/canonical.js");
      const tags = await import("../../evolution/definition-tags/approved-tags.js");
      const { projectLaneIds } = await import("../../release/statement/lane-ids.js");
      const root = projectPaths(command).root;
      const { warnStaleGenerated } = await import("../generated-freshness.js");
      await warnStaleGenerated(root);
      const snapshot = await readSnapshot(root);
      const approved = await liveApprovedDefinitions(root);
      const lanes = await projectLaneIds(root);
      const listed = snapshot.tools
        .filter((t) => typeof (t as { supersededBy?: unknown }).supersededBy !== "string")
        .map(({ kind: _kind, ...descriptor }) => descriptor as Record<string, unknown>);
      const served = tags.servedDefinitionSet(listed, lanes);
      const sets = tags.liveDefinitionSets(approved, lanes);
      if (opts.json) {
        const doc = {
          ...snapshot,
          approvedDefinitions: approvedDefinitionsJson(approved),
          definitionTags: tags.definitionTagsJson(served, sets),
        };
        process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
        return;
      }
      const current = snapshot.tools.map(({ kind: _kind, ...descriptor }) => ({
        name: descriptor.name,
        sha256: canonicalSha256(descriptor),
      }));
      process.stdout.write(
        contractSummary(snapshot) +
          approvedDefinitionsSummary(approved, current) +
          tags.definitionTagsSummary(served, sets),
      );
    });
}
