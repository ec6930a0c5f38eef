import pg from "pg";
import type { NamedStatement } from "./postgres-statements.js";

/** The setup of connections whose every statement is a SERIALIZABLE transaction. */
export const SERIALIZABLE_SESSION =
  "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE";

interface Lane {
  client: pg.Client;
  connected: Promise<unknown>;
  /** Statements sent and not answered yet. */
  pending: number;
  /** The socket is corked until the current tick ends. */
  corked: boolean;
  dead: boolean;
}

/**
 * A few connections shared by single-statement exchanges of the store (its reads; its presumed
 * writes, postgres-presumed-write.ts, on connections of their own), in the `pg` driver's pipeline
 * mode: no pool checkout, and the statements of one event-loop tick go out in one socket write.
 * Each statement is a transaction of its own (autocommit, its own sync point), so one failing never
 * touches another; a statement resolves once the server is ready for the next one, after its
 * commit. A connection that fails is replaced by the next statement; what was in flight on it fails
 * as on any lost connection.
 */
export class SharedPipeline {
  private readonly lanes: Lane[] = [];

  /** `setup`: a statement each connection runs first (e.g. its session's isolation level). */
  constructor(
    private readonly connection: string,
    private readonly size: number,
    private readonly setup?: string,
  ) {}

  /** Run one statement on the least busy connection. */
  async query<R extends pg.QueryResultRow>(
    statement: NamedStatement & { values: unknown[] },
  ): Promise<pg.QueryResult<R>> {
    const lane = this.lane();
    lane.pending++;
    try {
      await lane.connected;
      if (!lane.corked) {
        lane.corked = true;
        const socket = lane.client.connection.stream;
        socket.cork();
        process.nextTick(() => {
          lane.corked = false;
          socket.uncork();
        });
      }
      return await lane.client.query<R>(statement);
    } finally {
      lane.pending--;
    }
  }

  private lane(): Lane {
    for (let i = this.lanes.length - 1; i >= 0; i--)
      if (this.lanes[i].dead) this.lanes.splice(i, 1);
    let best: Lane | undefined;
    for (const lane of this.lanes) if (!best || lane.pending < best.pending) best = lane;
    if (best && (best.pending === 0 || this.lanes.length >= this.size)) return best;
    const client = new pg.Client({ connectionString: this.connection, pipeline: true });
    const setup = this.setup;
    const lane: Lane = {
      client,
      connected: client.connect().then(() => (setup ? client.query(setup) : undefined)),
      pending: 0,
      corked: false,
      dead: false,
    };
    // The statements in flight fail on their own; the lane is replaced.
    const drop = () => {
      lane.dead = true;
    };
    client.on("error", drop);
    client.on("end", drop);
    lane.connected.catch(() => {
      drop();
      client.end().catch(() => undefined);
    });
    this.lanes.push(lane);
    return lane;
  }

  async close(): Promise<void> {
    const lanes = this.lanes.splice(0);
    await Promise.all(lanes.map((l) => l.client.end().catch(() => undefined)));
  }
}
