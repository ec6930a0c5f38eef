import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { diagnose } from "../../../diagnostics/rule.js";
import { TRACE_INPUT_INVALID } from "../trace-input.js";
import { isMessage, type ReadEvent, type ReadTrace, timeOf } from "./read-trace.js";

/**
 * The MCP Inspector's protocol export (web client 2.x, the protocol panel's Export: a file named
 * `inspector-protocol-….json`): a JSON array of history entries `{timestamp, direction:
 * "request"|"response"|"notification", origin: "client"|"server", message, response?, duration?}`.
 * A request entry carries its response inline (answered `duration` ms later); `origin` says who
 * sent the request or notification.
 */
export function readInspectorExport(entries: unknown[], file: string): ReadTrace {
  const events: ReadEvent[] = [];
  const problems: Diagnostic[] = [];
  entries.forEach((entry, i) => {
    const where = { file, pointer: `/${i}` };
    const e = entry as Record<string, unknown> | null;
    const at = timeOf(e?.timestamp);
    const direction = e?.direction;
    if (
      !e ||
      Number.isNaN(at) ||
      !["request", "response", "notification"].includes(String(direction))
    ) {
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "unknownEvent", line: i + 1 }, where));
      return;
    }
    if (!isMessage(e.message)) {
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "notMessage", line: i + 1 }, where));
      return;
    }
    const sender = e.origin === "server" ? "server" : "client";
    const from = direction === "response" ? (sender === "client" ? "server" : "client") : sender;
    events.push({ at, from, message: e.message, where });
    if (direction === "request" && isMessage(e.response)) {
      const duration = typeof e.duration === "number" ? e.duration : 0;
      const answer = from === "client" ? "server" : "client";
      events.push({
        at: at + duration,
        from: answer,
        message: e.response,
        where: { file, pointer: `/${i}/response` },
      });
    }
  });
  events.sort((a, b) => a.at - b.at);
  return { format: "inspector", events, problems };
}
