import { type RawAnswer, RawMcpCaller } from "../runtime/raw-mcp-client.js";
import type { SoakLog } from "./soak-log.js";

/**
 * RawMcpCaller that logs every call it makes (latency, outcome, receipt) in a SoakLog, so the
 * shared benchmark calls (coach-learners.ts, recall-round.ts) run unchanged on it.
 */
export class SoakCaller extends RawMcpCaller {
  constructor(
    url: string,
    connections: number,
    tokenFor: (args: Record<string, unknown>) => string | undefined,
    private readonly log: SoakLog,
  ) {
    super(url, connections, tokenFor);
  }

  override send(
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<RawAnswer> {
    return this.logged(name, args.learningSessionId, () => super.send(name, args, meta));
  }

  override listTools(token?: string): Promise<RawAnswer> {
    return this.logged("tools/list", undefined, () => super.listTools(token));
  }

  private async logged(
    tool: string,
    sessionId: unknown,
    send: () => Promise<RawAnswer>,
  ): Promise<RawAnswer> {
    const t0 = performance.now();
    let answer: RawAnswer;
    try {
      answer = await send();
    } catch (error) {
      this.log.transportErrors++;
      throw error;
    }
    this.log.record(tool, answer, performance.now() - t0, sessionId);
    return answer;
  }
}
