import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { diagnose } from "../../../diagnostics/rule.js";
import { answerMessages, messagesOf } from "../../../contract-model/trace/trace-event.js";
import { TRACE_INPUT_INVALID } from "../trace-input.js";
import { isMessage, type ReadEvent, type ReadTrace, timeOf } from "./read-trace.js";

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: { method?: string; postData?: { text?: string } };
  response?: {
    headers?: { name: string; value: string }[];
    content?: { mimeType?: string; text?: string; encoding?: string };
  };
}

/**
 * An HTTP Archive (HAR 1.2, as browser developer tools and recording proxies export it): every
 * POST entry whose body is JSON-RPC is a client message at `startedDateTime`, and every JSON-RPC
 * message of its response (a JSON body or an SSE stream, base64 bodies decoded) a server message
 * `time` ms later. Other entries (GETs, OAuth, static files) are skipped.
 */
export function readHar(doc: unknown, file: string): ReadTrace {
  const entries = (doc as { log: { entries: HarEntry[] } }).log.entries;
  const events: ReadEvent[] = [];
  const problems: Diagnostic[] = [];
  entries.forEach((entry, i) => {
    const where = { file, pointer: `/log/entries/${i}` };
    const at = timeOf(entry?.startedDateTime);
    if (Number.isNaN(at)) {
      problems.push(diagnose(TRACE_INPUT_INVALID, { variant: "unknownEvent", line: i + 1 }, where));
      return;
    }
    if (entry.request?.method !== "POST" || typeof entry.request.postData?.text !== "string")
      return;
    let body: unknown;
    try {
      body = JSON.parse(entry.request.postData.text);
    } catch {
      return; // not an MCP request
    }
    const sent = messagesOf(body).filter(isMessage);
    if (sent.length === 0) return;
    for (const message of sent)
      events.push({
        at,
        from: "client",
        message,
        where: { ...where, pointer: `${where.pointer}/request` },
      });
    const content = entry.response?.content;
    if (typeof content?.text !== "string") return;
    const text =
      content.encoding === "base64"
        ? Buffer.from(content.text, "base64").toString("utf8")
        : content.text;
    const type =
      content.mimeType ??
      entry.response?.headers?.find((h) => h.name.toLowerCase() === "content-type")?.value;
    const answerAt = at + (typeof entry.time === "number" ? entry.time : 0);
    for (const message of answerMessages(type, text).filter(isMessage))
      events.push({
        at: answerAt,
        from: "server",
        message,
        where: { ...where, pointer: `${where.pointer}/response` },
      });
  });
  events.sort((a, b) => a.at - b.at);
  return { format: "har", events, problems };
}
