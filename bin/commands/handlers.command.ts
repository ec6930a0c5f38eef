import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import type { DiagnosticFormat } from "../../diagnostics/render/index.js";
import { exitCodesHelp } from "../exit-codes.js";
import { emitReport, emitStatus, formatOption } from "../report.js";
import { projectPaths, rootRelative } from "./root.js";

/** `skillpilot handlers scaffold DIR`: starter handler files; never overwrites. */
export function registerHandlersCommand(program: Command): void {
  const handlers = program
    .command("handlers")
    .summary("Scaffold handlers from the generated interfaces")
    .description("Work with the typed handler interfaces generated from the schemas.")
    .addHelpText(
      "after",
      exitCodesHelp({ ok: "help shown", usage: "unknown subcommand or usage error" }),
    );
  handlers
    .command("scaffold")
    .summary("Create a not-implemented handler file per tool")
    .argument("<dir>", "folder to create the handler files in (relative to -C/--root)")
    .description(
      "Create a <tool>.handler.ts per tool that implements the generated " +
        "interface and throws a not-implemented error. Existing files are left " +
        "untouched.",
    )
    .addOption(formatOption())
    .addHelpText(
      "after",
      exitCodesHelp({
        ok: "files created or kept",
        findings: "the schemas do not build a contract",
        usage: "usage or I/O error",
      }),
    )
    .action(async (dir: string, opts: { format: DiagnosticFormat }, command: Command) => {
      const { buildModel } = await import("../../generator/build-model.js");
      const { emitHandlerScaffold } = await import(
        "../../generator/emit/handler-scaffold.emitter.js"
      );
      const { readContractSources } = await import("../../generator/load.js");
      const paths = projectPaths(command);
      const { model, diagnostics } = buildModel(await readContractSources(paths));
      if (!model) {
        process.exitCode = emitReport(diagnostics, opts.format);
        return;
      }
      const absDir = rootRelative(command, dir);
      let rel = path.relative(absDir, path.join(paths.root, "generated")).split(path.sep).join("/");
      if (!rel.startsWith(".")) rel = `./${rel}`;
      await mkdir(absDir, { recursive: true });
      const shown = (target: string) => path.relative(paths.root, target).split(path.sep).join("/");
      const lines: string[] = [];
      for (const file of emitHandlerScaffold(model, ".", rel)) {
        const target = path.join(absDir, file.path);
        try {
          await writeFile(target, file.contents, { flag: "wx" });
          lines.push(`created ${shown(target)}`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          lines.push(`kept    ${shown(target)} (exists)`);
        }
      }
      for (const line of lines) emitStatus(opts.format, line);
      process.exitCode = emitReport(diagnostics, opts.format);
    });
}
