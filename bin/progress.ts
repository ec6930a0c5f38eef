/**
 * Progress of a long operation on a terminal: one status line on stderr, rewritten in place —
 * a spinner, the command, the current step and the seconds so far — and erased when the operation
 * ends, so the terminal keeps only the result. Quiet where a machine reads: when stderr is not a
 * terminal, in CI (`CI` set) and on a dumb terminal. stdout is never touched, so a machine format
 * there stays one clean document.
 *
 * ```ts
 * const progress = startProgress("prepare");
 * try {
 *   progress.step("building the archives");
 *   …
 * } finally {
 *   progress.done();
 * }
 * ```
 */
export interface Progress {
  /** Name what happens now (shown until the next step). */
  step(label: string): void;
  /** Erase the line (call before printing the result). Safe to call twice. */
  done(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const TICK_MS = 120;

/** Whether progress is shown on `stream` in `env`. */
export function progressShown(
  stream: Pick<NodeJS.WriteStream, "isTTY">,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return stream.isTTY === true && !env.CI && env.TERM !== "dumb";
}

const quiet: Progress = { step: () => undefined, done: () => undefined };

/** Start the progress line of `command` (e.g. "prepare") with a first step. */
export function startProgress(
  command: string,
  first = "working",
  stream: NodeJS.WriteStream = process.stderr,
  env: NodeJS.ProcessEnv = process.env,
): Progress {
  if (!progressShown(stream, env)) return quiet;
  const started = Date.now();
  let label = first;
  let frame = 0;
  let finished = false;
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const line = `${FRAMES[frame++ % FRAMES.length]} ${command}: ${label}${seconds ? ` (${seconds} s)` : ""}`;
    const width = stream.columns ? stream.columns - 1 : line.length;
    stream.write(`\r\x1b[2K${line.slice(0, width)}`);
  };
  const erase = () => stream.write("\r\x1b[2K");
  const timer = setInterval(draw, TICK_MS);
  timer.unref();
  // An exit in the middle (an error, a signal turned into an exit) still leaves a clean line.
  process.once("exit", () => {
    if (!finished) erase();
  });
  draw();
  return {
    step(next) {
      if (finished) return;
      label = next;
      draw();
    },
    done() {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      erase();
    },
  };
}
