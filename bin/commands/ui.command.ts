import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { emitReport, emitStatus, formatOption } from "../report.js";
import { projectPaths, rootRelative } from "./root.js";

/** `skillpilot ui build [--activate] [--out DIR]`: content-addressed UI artifacts. */
export function registerUiCommand(program: Command): void {
  const ui = program
    .command("ui")
    .summary("Build the widget pages (content-addressed)")
    .description(
      "The MCP Apps widget pages under ui/: each is built into one self-contained page whose " +
        "URI names its hash, so a URI once served never changes its bytes.",
    )
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  ui.command("build")
    .summary("Build each ui/<name>/ page and print its URI")
    .description(
      "Build each ui/<name>/ into one self-contained HTML page and print its " +
        "ui://skillpilot/coach/<major>/sha256-<hex>/index.html URI.",
    )
    .option(
      "--activate",
      "rewrite release/line.json activeUi to these URIs and regenerate generated/",
    )
    .option(
      "--out <dir>",
      "also write each page to <dir>/<uri path> (relative to -C/--root; e.g. for a static preview)",
    )
    .option("--json", "print {name: uri} as JSON")
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "built (and activated)",
        findings: "the line no longer generates",
        usage: "usage or I/O error (e.g. a page references a remote file)",
      }),
    )
    .action(
      async (
        opts: { activate?: boolean; out?: string; json?: boolean; format: DiagnosticFormat },
        command: Command,
      ) => {
        const { readPluginContractMajor } = await import("../../release/plugin-identity.js");
        const { activateUi } = await import("../../release/ui/activate-ui.js");
        const { buildAllUi } = await import("../../release/ui/build-ui.js");
        const root = projectPaths(command).root;
        const artifacts = await buildAllUi(root, await readPluginContractMajor(root));
        if (opts.out)
          for (const a of artifacts) {
            const abs = path.join(rootRelative(command, opts.out), a.uri.slice("ui://".length));
            await mkdir(path.dirname(abs), { recursive: true });
            await writeFile(abs, a.html);
          }
        const listing = opts.json
          ? JSON.stringify(Object.fromEntries(artifacts.map((a) => [a.name, a.uri])), null, 2)
          : artifacts.map((a) => `${a.name}  ${a.uri}`).join("\n");
        // The listing is this command's result in text format; with a machine --format it is a
        // status line.
        emitStatus(opts.format, listing);
        if (!opts.activate) {
          process.exitCode = emitReport([], opts.format);
          return;
        }
        const result = await activateUi(root, artifacts);
        const message = result.changed.length
          ? `activated ${result.changed.join(", ")}; regenerated ` +
            `${result.regenerated.length} file(s)`
          : "release/line.json already binds these URIs";
        // With --json stdout holds the listing alone; the activation line goes to stderr.
        if (opts.json) process.stderr.write(`${message}\n`);
        process.exitCode = emitReport(
          result.diagnostics,
          opts.format,
          opts.json ? {} : { summary: message },
        );
      },
    );
}
