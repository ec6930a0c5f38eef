import type { Command } from "commander";

/**
 * How `--help` is laid out, for every command of the tree (commander hands the configuration of
 * the program down to each subcommand created with `.command()`).
 *
 * A command declares two texts:
 * - `.summary("…")`: one short line (no final full stop), shown in its parent's command list, so
 *   `skillpilot --help` stays one line per command;
 * - `.description("…")`: the detail, shown by `skillpilot COMMAND --help` and
 *   `skillpilot help COMMAND`.
 * A command without a summary is listed with the first sentence of its description.
 */
export function configureHelpLayout(program: Command): Command {
  return program.configureHelp({
    subcommandTerm: commandTerm,
    subcommandDescription: commandSummary,
  });
}

/** The line a command gets in its parent's command list. */
export function commandSummary(command: Command): string {
  const summary = command.summary();
  if (summary) return summary;
  const description = command.description();
  return /^.*?[.!?](?=\s|$)/s.exec(description)?.[0].replace(/[.]$/, "") ?? description;
}

/**
 * A command as the list names it: its name, alias and arguments. Unlike commander's default it
 * leaves out `[options]`: every command has some, and its own help lists them.
 */
function commandTerm(command: Command): string {
  const args = command.registeredArguments.map((arg) => {
    const name = `${arg.name()}${arg.variadic ? "..." : ""}`;
    return arg.required ? `<${name}>` : `[${name}]`;
  });
  const alias = command.aliases()[0];
  return [`${command.name()}${alias ? `|${alias}` : ""}`, ...args].join(" ");
}
