import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkTrace, contractFacts } from "../../../../../checks/trace/check-trace.js";
import { repoRoot } from "../../../../support/temp-project.js";

type Facts = Parameters<typeof checkTrace>[2];

/** The project's turn facts, from its generated snapshot. */
const facts = contractFacts(
  JSON.parse(readFileSync(path.join(repoRoot, "generated/contract.snapshot.json"), "utf8")),
) as Facts;

/** The session handle every call carries (its first use is the launch's, never a finding). */
export const SESSION = "redacted:session:0011223344556677";

/** How the server answers a call: structured content (OK) or a stable error code. */
export type Answer = { ok: Record<string, unknown> } | { error: string };

/**
 * A recorded conversation as JSON Lines, written event by event: learner messages, tool calls
 * (each with the session handle) and the server's answers, one second apart. Event n is line n.
 */
export class TraceScript {
  private readonly events: unknown[] = [];
  private nextId = 1;

  private at(): string {
    return new Date(Date.UTC(2026, 11, 1, 10, 0, this.events.length)).toISOString();
  }

  /** A learner message: the start of a turn. */
  learner(): this {
    this.events.push({ at: this.at(), learnerMessage: true });
    return this;
  }

  /** Send a call without its answer yet; returns its request id (for `reply`). */
  send(tool: string, args: Record<string, unknown> = {}): number {
    const id = this.nextId++;
    this.events.push({
      at: this.at(),
      from: "client",
      message: {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: tool, arguments: { learningSessionId: SESSION, ...args } },
      },
    });
    return id;
  }

  /** The server's answer to request `id`. */
  reply(id: number, answer: Answer): this {
    const result =
      "ok" in answer
        ? {
            content: [{ type: "text", text: "redacted:prose:3-words" }],
            structuredContent: answer.ok,
          }
        : { isError: true, content: [{ type: "text", text: `${answer.error}: redacted` }] };
    this.events.push({ at: this.at(), from: "server", message: { jsonrpc: "2.0", id, result } });
    return this;
  }

  /** A call answered at once (by default OK with empty structured content). */
  call(tool: string, args: Record<string, unknown> = {}, answer: Answer = { ok: {} }): this {
    return this.reply(this.send(tool, args), answer);
  }

  /** The number of the line the next event will be written on. */
  get nextLine(): number {
    return this.events.length + 1;
  }

  /**
   * The trace check's findings of `rule`, as [severity, line, message]; the trace must be usable
   * and read as written (learner messages marking its turns).
   */
  findings(rule: string): [string, number | undefined, string][] {
    const text = `${this.events.map((e) => JSON.stringify(e)).join("\n")}\n`;
    const result = checkTrace(text, "trace.jsonl", facts, "contract", { turnGapSeconds: 30 });
    assert.ok(!result.unusable && !result.inferred, JSON.stringify(result.diagnostics));
    assert.equal(result.events, this.events.length);
    return result.diagnostics
      .filter((d) => d.ruleId === rule)
      .map((d) => [d.severity, d.location.line, d.message]);
  }
}

export const READ = "get_skillpilot_learning_context";
export const COMPLETE = "complete_skillpilot_goal";
/** A full context as the read returns it. */
export const context = (stateVersion = 3, extra: Record<string, unknown> = {}) => ({
  ok: { learningSessionId: SESSION, stateVersion, ...extra },
});
/** The arguments of complete_skillpilot_goal at a state version, with an idempotency key. */
export const completeArgs = (stateVersion = 3, key = "6b2d1c1e-1111-4222-8333-444455556666") => ({
  expectedStateVersion: stateVersion,
  clientRequestId: key,
  decision: "achieved",
});
