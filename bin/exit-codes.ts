/** Stable exit codes of every `skillpilot` subcommand. */
export const ExitCode = {
  /** Success: nothing to report, or only warnings. */
  ok: 0,
  /**
   * The input has problems (diagnostics with severity error), a check failed, or a diff is
   * breaking.
   */
  findings: 1,
  /** Usage error, unreadable input, or an I/O failure. */
  usage: 2,
} as const;

/**
 * What each exit code means for one command; `findings` is omitted by commands that never exit 1.
 */
export interface ExitCodeMeanings {
  ok: string;
  findings?: string;
  usage: string;
}

/**
 * The closing `--help` paragraph listing a command's exit codes, so every subcommand documents
 * them the same way (tests assert each help ends with it).
 */
export function exitCodesHelp(meanings: ExitCodeMeanings): string {
  const parts = [
    `${ExitCode.ok} ${meanings.ok}`,
    ...(meanings.findings ? [`${ExitCode.findings} ${meanings.findings}`] : []),
    `${ExitCode.usage} ${meanings.usage}`,
  ];
  return `\nExit codes: ${parts.join(", ")}.`;
}
