import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { sortDiagnostics } from "../../diagnostics/diagnostic.js";
import { renderDiagnostics } from "../../diagnostics/render/index.js";
import { buildModel } from "../../generator/build-model.js";
import { emitHandlerScaffold } from "../../generator/emit/handler-scaffold.emitter.js";
import { readContractSources } from "../../generator/load.js";
import { ExitCode } from "../exit-codes.js";
import { projectPaths } from "./root.js";

/** `skillpilot handlers scaffold DIR`: starter handler files; never overwrites. */
export function registerHandlersCommand(program: Command): void {
  const handlers = program.command("handlers").description("Work with the typed handler interfaces generated from the schemas.");
  handlers
    .command("scaffold")
    .argument("<dir>", "folder to create the handler files in")
    .description("Create a <tool>.handler.ts per tool that implements the generated interface and throws a not-implemented error. Existing files are left untouched.")
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const paths = projectPaths(command);
      const { model, diagnostics } = buildModel(await readContractSources(paths));
      if (!model) {
        process.stderr.write(renderDiagnostics(sortDiagnostics(diagnostics), "text"));
        process.exitCode = ExitCode.findings;
        return;
      }
      const absDir = path.resolve(dir);
      let rel = path.relative(absDir, path.join(paths.root, "generated")).split(path.sep).join("/");
      if (!rel.startsWith(".")) rel = `./${rel}`;
      await mkdir(absDir, { recursive: true });
      for (const file of emitHandlerScaffold(model, ".", rel)) {
        const target = path.join(absDir, file.path);
        try {
          await writeFile(target, file.contents, { flag: "wx" });
          process.stdout.write(`created ${path.relative(process.cwd(), target)}\n`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
          process.stdout.write(`kept    ${path.relative(process.cwd(), target)} (exists)\n`);
        }
      }
    });
}
