import type { Command } from "commander";
import { ExitCode, exitCodesHelp } from "../exit-codes.js";
import { projectPaths, rootRelative } from "./root.js";

interface VerifyOptions {
  statement?: string;
  key?: string;
  previous?: string;
  requireReleaseKey?: boolean;
}

/** `skillpilot statement verify`: check the signed statement of approved definitions offline. */
export function registerStatementCommand(program: Command): void {
  const statement = program
    .command("statement")
    .summary("Check the signed approved-definitions statement")
    .description(
      "The signed statement of approved definitions (experimental, definition tags): every " +
        "lane's served and live approved definition sets with their tags and tool digests, " +
        "appended by record-published and retire-definitions.",
    )
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  statement
    .command("verify")
    .summary("Verify a statement with only its public key")
    .description(
      "Verify a statement offline: a compact JWS signed with EdDSA by the key given (no other " +
        "algorithm, no key carried in the token), its payload the canonical JSON of the " +
        "statement, its entries chained by hash, every tag recomputed from its digests, and the " +
        "readable .json copy beside it (if any) equal to what is signed. With --previous: every " +
        "entry of that earlier statement is kept unchanged (history is only appended to).",
    )
    .option(
      "--statement <file>",
      "the signed statement (default: contracts/approved-definitions.jws)",
    )
    .option(
      "--key <file>",
      "the public Ed25519 JWK (default: contracts/approved-definitions.jwk.json)",
    )
    .option("--previous <file>", "an earlier statement signed by the same key, which must be kept")
    .option("--require-release-key", "refuse a development-signed statement")
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "verified",
        findings:
          "refused (tampered, another key or algorithm, history rewritten, development-signed with --require-release-key)",
        usage: "usage error, a file that cannot be read, or a key that is not a public Ed25519 JWK",
      }),
    )
    .action(async (opts: VerifyOptions, command: Command) => {
      const { readFile } = await import("node:fs/promises");
      const { projectLayout } = await import("../../contract-model/project/project-layout.js");
      const { verifyStatementFiles } = await import(
        "../../release/statement/verify-statement-files.js"
      );
      const root = projectPaths(command).root;
      const at = (given: string | undefined, fallback: string) =>
        rootRelative(command, given ?? fallback);
      const files = {
        statement: at(opts.statement, projectLayout.approvedStatementJws),
        key: at(opts.key, projectLayout.approvedStatementKey),
        previous: opts.previous && rootRelative(command, opts.previous),
      };
      const result = await verifyStatementFiles(files, { read: (f) => readFile(f, "utf8"), root });
      if (result.kind === "bad-input") {
        process.stderr.write(`skillpilot: ${result.message}\n`);
        process.exitCode = ExitCode.usage;
        return;
      }
      if (result.kind === "refused") {
        process.stderr.write(`statement refused: ${result.message}\n`);
        process.exitCode = ExitCode.findings;
        return;
      }
      if (opts.requireReleaseKey && result.development) {
        process.stderr.write(
          "statement refused: it is development-signed, not signed by a release key\n",
        );
        process.exitCode = ExitCode.findings;
        return;
      }
      process.stdout.write(result.summary);
    });
}
