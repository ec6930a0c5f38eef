/** Stable exit codes of every `skillpilot` subcommand. */
export const ExitCode = {
  /** Success: nothing to report, or only warnings. */
  ok: 0,
  /** The input has problems (diagnostics with severity error), a check failed, or a diff is breaking. */
  findings: 1,
  /** Usage error, unreadable input, or an I/O failure. */
  usage: 2,
} as const;
