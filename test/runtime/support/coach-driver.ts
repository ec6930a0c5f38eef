import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import type { CoachClient, ToolResult } from "./mcp-clients.js";
import type { RuntimeFixture } from "./runtime-fixture.js";
import type { WireObject } from "../../support/wire.js";

/** Any tool output, loosely typed for assertions. */
export type Out = WireObject;

const DAY_MS = 86_400_000;

/**
 * Drives a coach session the way a chat client would: every call goes over the real MCP client and
 * is recorded in `trace`, so a test can assert the exact call list (G10).
 */
export class CoachDriver {
  readonly trace: string[] = [];
  private offsetMs = 0;

  constructor(
    readonly client: CoachClient,
    readonly fx: RuntimeFixture,
  ) {
    fx.services.now = () => new Date(Date.now() + this.offsetMs);
  }

  /** Move the server's clock forward (recall items fall due). */
  advanceDays(days: number): void {
    this.offsetMs += days * DAY_MS;
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    this.trace.push(name);
    return this.client.callTool(name, args);
  }

  /** Call and insist on success; returns structuredContent. */
  async ok(name: string, args: Record<string, unknown>): Promise<Out> {
    const result = await this.call(name, args);
    assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result)}`);
    return result.structuredContent as Out;
  }

  context(learningSessionId: string): Promise<Out> {
    return this.ok("get_skillpilot_learning_context", { learningSessionId });
  }

  choose(ctx: Out, index = 0): Promise<Out> {
    return this.ok("choose_skillpilot_option", {
      learningSessionId: ctx.learningSessionId,
      expectedStateVersion: ctx.stateVersion,
      clientRequestId: randomUUID(),
      option: ctx.options[index].payload,
    });
  }

  /** Complete the active goal as achieved; returns the successor context. */
  async master(ctx: Out): Promise<Out> {
    const out = await this.ok("complete_skillpilot_goal", {
      learningSessionId: ctx.learningSessionId,
      expectedStateVersion: ctx.stateVersion,
      clientRequestId: randomUUID(),
      decision: "achieved",
    });
    return out.successor as Out;
  }

  /**
   * A new session focused on git-basics with its first `goals` goals mastered, `daysBetween` days
   * apart; returns the session id and the latest context.
   */
  async sessionWithMastered(
    learner: string,
    goals: number,
    daysBetween = 0,
  ): Promise<{ sid: string; ctx: Out }> {
    const sid = await this.fx.newSession(learner);
    let ctx = await this.choose(await this.context(sid));
    for (let i = 0; i < goals; i++) {
      if (i > 0) this.advanceDays(daysBetween);
      ctx = await this.master(ctx);
    }
    return { sid, ctx };
  }

  /** Internal learner row id of a session (assertions on the database only). */
  async learnerId(sid: string): Promise<number> {
    return (await this.fx.db("sessions").where({ session_id: sid }).first()).learner_id as number;
  }

  /** Every row a write could touch for this learner, for "zero mutation" assertions (C14). */
  async rows(sid: string): Promise<Out> {
    const learner_id = await this.learnerId(sid);
    const db = this.fx.db;
    return {
      state: await db("learner_state").where({ learner_id }).first(),
      progress: await db("progress").where({ learner_id }).orderBy("goal_id"),
      receipts: await db("receipts").where({ learner_id }).orderBy("receipt_id"),
      keys: await db("idempotency_records").where({ session_id: sid }).orderBy("client_request_id"),
      spent: await db("spent_capabilities").orderBy("jti"),
    };
  }
}
