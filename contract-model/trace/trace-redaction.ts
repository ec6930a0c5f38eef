import { createHash } from "node:crypto";
import { isObject } from "../../json-schema/walk.js";
import type { JsonRpcMessage } from "./trace-event.js";
import { isProseString } from "./prose-value.js";

/**
 * Redaction of a trace, so a recorded trace is safe to attach to a bug report (C15, L13): session
 * ids become their log fingerprint (`redacted:session:<16 hex>`, the same HMAC as the call log's
 * `sessionFingerprint`), tokens `redacted:token` (JWTs, secrets handed to `addSecret` and matches of
 * the configured token patterns, anywhere in a string), learner-visible prose
 * `redacted:prose:<n>-words` (every text content block, every string a tool's output schema
 * declares prose-capable, and any other string that reads as prose, in results, `_meta` and
 * arguments alike), and resource bodies `redacted:content:sha256-<hex>`; a tools/list result keeps
 * each tool's name and the sha256 of its descriptor (the schemas are the contract's, and large).
 * A leading stable error code
 * of a text block (`STATE_CONFLICT: …`) is kept. Ids, capabilities, option payloads, numbers and
 * enums stay: the trace rules compare them.
 */

/** What a redactor needs from its surroundings. */
export interface RedactionOptions {
  /** The log fingerprint of a session id (an HMAC under the server's or the recording's key). */
  fingerprint: (sessionId: string) => string;
  /** The input/output property holding the session handle (turn-facts.ts), when known. */
  sessionField?: string;
  /** Per tool, the output fields (`batch.items[].prompt`) whose language is prose-capable. */
  proseOutputs?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Shapes of opaque tokens (global regular expressions): every match, anywhere in a string,
   * becomes `redacted:token`.
   */
  tokenPatterns?: readonly RegExp[];
}

/** Shorter secrets are not searched for inside strings (they would match ordinary words). */
const MIN_SECRET_LENGTH = 8;

const bearer = /^(?:Bearer\s+)?eyJ[\w-]*\.[\w-]*\.[\w-]*$/;
/** A JWT anywhere in a string (a header, a URL, a sentence). */
const jwtInside = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
/**
 * A learning-session id (`sps_` + base64url) anywhere in a string, also glued to a word before it
 * (`learner_sps_…`); a known id is replaced exactly first, so what follows it stays.
 */
const sessionInside = /sps_[A-Za-z0-9_-]{22,}/g;
const leadingCode = /^([A-Z][A-Z0-9_]{2,}):/;

const proseMarker = (text: string) => {
  const words = text.trim().split(/\s+/u).filter(Boolean).length;
  return `redacted:prose:${words}-word${words === 1 ? "" : "s"}`;
};

/** A listed tool as a trace keeps it: its name and the hash of its descriptor. */
function listedTool(tool: unknown): unknown {
  if (!isObject(tool)) return tool;
  const sha256 = createHash("sha256").update(JSON.stringify(tool)).digest("hex");
  return { name: tool.name, sha256 };
}

/** Redacts the messages of one trace; remembers session ids seen, to redact every occurrence. */
export class TraceRedactor {
  private readonly sessions = new Map<string, string>();
  /** The tool of each pending request, by JSON-RPC id, to find its output's prose fields. */
  private readonly pending = new Map<string, string>();
  /** Secrets seen outside the messages (a bearer token of the requests), redacted wherever they recur. */
  private readonly secrets = new Set<string>();

  constructor(private readonly options: RedactionOptions) {}

  /**
   * Redact `secret` (e.g. an Authorization header's token, opaque or not) wherever it appears in a
   * later message, whole or inside a longer string. Values shorter than 8 characters are ignored.
   */
  addSecret(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH) this.secrets.add(secret);
  }

  /** A redacted copy of one message sent by `from`. */
  redact(message: JsonRpcMessage, from: "client" | "server"): JsonRpcMessage {
    const id = JSON.stringify(message.id ?? null);
    const params = isObject(message.params) ? message.params : undefined;
    if (from === "client" && message.method === "tools/call" && typeof params?.name === "string")
      this.pending.set(id, params.name);
    let tool: string | undefined;
    if (from === "server" && ("result" in message || "error" in message)) {
      tool = this.pending.get(id);
      this.pending.delete(id);
    }
    this.learnSessions(message);
    return this.value(message, "", tool) as JsonRpcMessage;
  }

  private learnSessions(value: unknown): void {
    const field = this.options.sessionField;
    if (!field) return;
    if (Array.isArray(value)) for (const v of value) this.learnSessions(v);
    else if (isObject(value))
      for (const [k, v] of Object.entries(value)) {
        if (k === field && typeof v === "string" && !this.sessions.has(v))
          this.sessions.set(v, `redacted:session:${this.options.fingerprint(v)}`);
        else this.learnSessions(v);
      }
  }

  private value(value: unknown, path: string, tool: string | undefined, prose = false): unknown {
    if (typeof value === "string") return this.string(value, prose);
    if (Array.isArray(value)) return value.map((v) => this.value(v, `${path}[]`, tool, prose));
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // A key is never prose, but a token or session id used as a key goes too.
      const k = this.inside(key);
      const at = path ? `${path}.${k}` : k;
      if (at === "result.content" && Array.isArray(v)) out[k] = v.map((b) => this.block(b));
      else if (at === "result.tools" && Array.isArray(v)) out[k] = v.map(listedTool);
      else if (at === "result.contents" && Array.isArray(v)) out[k] = v.map((c) => this.body(c));
      else if (at.startsWith("result.structuredContent") && tool) {
        const field = at.slice("result.structuredContent.".length);
        const declared = this.options.proseOutputs?.get(tool)?.has(field) ?? false;
        out[k] = this.value(v, at, tool, prose || declared);
      } else out[k] = this.value(v, at, tool, prose);
    }
    return out;
  }

  private string(raw: string, prose: boolean): string {
    const session = this.sessions.get(raw);
    if (session) return session;
    if (bearer.test(raw) || this.secrets.has(raw)) return "redacted:token";
    // Tokens and session ids inside a longer string (a URL, a header, a sentence) go too.
    const text = this.inside(raw);
    if (prose || isProseString(text)) return proseMarker(text);
    return text;
  }

  /**
   * `text` with every known secret, every JWT-shaped, `sps_`-shaped and configured token-shaped
   * substring replaced by its marker.
   */
  private inside(raw: string): string {
    let text = raw;
    for (const secret of this.secrets)
      if (text.includes(secret)) text = text.split(secret).join("redacted:token");
    if (text.includes("eyJ")) text = text.replace(jwtInside, "redacted:token");
    if (text.includes("sps_")) {
      for (const [id, marker] of this.sessions)
        if (id.startsWith("sps_") && text.includes(id)) text = text.split(id).join(marker);
      text = text.replace(sessionInside, (id) => this.sessionMarker(id));
    }
    for (const pattern of this.options.tokenPatterns ?? [])
      text = text.replace(pattern, "redacted:token");
    return text;
  }

  private sessionMarker(id: string): string {
    let marker = this.sessions.get(id);
    if (!marker) {
      marker = `redacted:session:${this.options.fingerprint(id)}`;
      this.sessions.set(id, marker);
    }
    return marker;
  }

  /** A content block: its text is learner-visible prose, except a leading stable error code. */
  private block(block: unknown): unknown {
    if (!isObject(block) || typeof block.text !== "string") return this.value(block, "", undefined);
    const code = leadingCode.exec(block.text)?.[1];
    const rest = code ? block.text.slice(code.length + 1) : block.text;
    const text = `${code ? `${code}: ` : ""}${rest.trim() ? proseMarker(rest) : ""}`.trim();
    return { ...block, text };
  }

  /** A resource body: only its hash is kept. */
  private body(content: unknown): unknown {
    if (!isObject(content)) return content;
    const out: Record<string, unknown> = { ...content };
    for (const key of ["text", "blob"] as const)
      if (typeof content[key] === "string")
        out[key] =
          `redacted:content:sha256-${createHash("sha256").update(content[key]).digest("hex")}`;
    if (isObject(content._meta)) out._meta = this.value(content._meta, "", undefined);
    return out;
  }
}

/**
 * Per tool, the output fields whose language can hold prose (the free-text judgement on output
 * schemas): what a redactor replaces whatever the value looks like.
 */
export async function proseOutputFields(
  tools: readonly { name: string; outputSchema?: unknown }[],
): Promise<Map<string, Set<string>>> {
  const { FreeTextJudge } = await import("../text/free-text.js");
  const judge = new FreeTextJudge();
  return new Map(
    tools.map((t) => [t.name, new Set(judge.fields(t.outputSchema ?? {}).map((f) => f.field))]),
  );
}
