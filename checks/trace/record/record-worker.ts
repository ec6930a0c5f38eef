/**
 * The recording proxy's recorder thread: it decodes, redacts and writes what the forwarding thread
 * hands it, so recording costs the forwarded calls no time and a recording that fails (even out of
 * memory) leaves forwarding running. Started by recorder-thread.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { RecorderCommand, RecorderReply } from "./recorder-thread.js";
import { type RecorderOptions, TraceRecorder } from "./trace-recorder.js";

/** Request ids per exchange, for the answers of the most recent exchanges. */
const KEPT_EXCHANGES = 1000;

const { options, fd } = workerData as { options: RecorderOptions; fd: number };
const port = parentPort!;
const reply = (message: RecorderReply) => port.postMessage(message);
try {
  const recorder = await TraceRecorder.open(options, fd);
  const requestIds = new Map<number, unknown[]>();
  port.on("message", async (command: RecorderCommand) => {
    try {
      switch (command.kind) {
        case "secret":
          recorder.addSecret(command.secret);
          return;
        case "learnerMessage":
          recorder.learnerMessage();
          return;
        case "body": {
          const b = command.body;
          const body = b === "tooLarge" ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
          if (command.from === "client") {
            requestIds.set(command.exchange, recorder.body("client", body));
            if (requestIds.size > KEPT_EXCHANGES)
              requestIds.delete(requestIds.keys().next().value as number);
          } else recorder.body("server", body, requestIds.get(command.exchange));
          return;
        }
        case "close":
          await recorder.close();
          reply({ kind: "closed", events: recorder.events() });
          return;
      }
    } catch (error) {
      reply({ kind: "problem", line: `a message could not be recorded: ${firstLine(error)}` });
    }
  });
  reply({ kind: "ready" });
} catch (error) {
  reply({ kind: "failed", line: firstLine(error) });
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}
