import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Option, type Command } from "commander";
import { diagnosticFormats, type DiagnosticFormat } from "../../diagnostics/render/index.js";
import { readPluginContractMajor } from "../../release/plugin-identity.js";
import { reportStep } from "../../release/report-step.js";
import { activateUi } from "../../release/ui/activate-ui.js";
import { buildAllUi } from "../../release/ui/build-ui.js";
import { projectPaths } from "./root.js";

/** `skillpilot ui build [--activate] [--out DIR]`: content-addressed UI artifacts. */
export function registerUiCommand(program: Command): void {
  const ui = program.command("ui").description("Content-addressed MCP Apps UI pages (L10).");
  ui.command("build")
    .description("Build each ui/<name>/ into one self-contained HTML page and print its ui://skillpilot/coach/<major>/sha256-<hex>/index.html URI.")
    .option("--activate", "rewrite release/line.json activeUi to these URIs and regenerate generated/")
    .option("--out <dir>", "also write each page to <dir>/<uri path> (e.g. for a static preview)")
    .option("--json", "print {name: uri} as JSON")
    .addOption(new Option("--format <format>", "diagnostic output format").choices(diagnosticFormats).default("text"))
    .addHelpText("after", "\nExit codes: 0 built (and activated), 1 the line no longer generates, 2 usage or I/O error (e.g. a page references a remote file).")
    .action(async (opts: { activate?: boolean; out?: string; json?: boolean; format: DiagnosticFormat }, command: Command) => {
      const root = projectPaths(command).root;
      const artifacts = await buildAllUi(root, await readPluginContractMajor(root));
      if (opts.out)
        for (const a of artifacts) {
          const abs = path.resolve(opts.out, a.uri.slice("ui://".length));
          await mkdir(path.dirname(abs), { recursive: true });
          await writeFile(abs, a.html);
        }
      const listing = opts.json ? JSON.stringify(Object.fromEntries(artifacts.map((a) => [a.name, a.uri])), null, 2) : artifacts.map((a) => `${a.name}  ${a.uri}`).join("\n");
      process.stdout.write(listing + "\n");
      if (!opts.activate) return;
      const result = await activateUi(root, artifacts);
      const message = result.changed.length ? `activated ${result.changed.join(", ")}; regenerated ${result.regenerated.length} file(s)` : "release/line.json already binds these URIs";
      process.exitCode = reportStep({ diagnostics: result.diagnostics, message }, opts.format);
    });
}
