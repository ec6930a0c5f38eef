import pg from "pg";

type Method = (this: object, ...args: unknown[]) => unknown;
const HOOKED = ["sync", "query", "emit"] as const;

/**
 * Count the round trips to PostgreSQL that every `pg` connection of this process makes while
 * `work` runs. A round trip is a request sent while its connection has no answer outstanding: a
 * statement pipelined behind one still unanswered rides on that round trip, and without pipelining
 * every statement is one. A request ends at its sync point (the Sync after an extended-protocol
 * statement, or a simple Query); its answer ends with ReadyForQuery.
 */
export async function countRoundTrips(work: () => Promise<void>): Promise<number> {
  const proto = pg.Connection.prototype as unknown as Record<string, Method>;
  const saved = HOOKED.map((name) => Object.getOwnPropertyDescriptor(proto, name));
  const { sync, query, emit } = proto;
  const outstanding = new WeakMap<object, number>();
  let trips = 0;
  const sent = (con: object) => {
    const waiting = outstanding.get(con) ?? 0;
    if (waiting === 0) trips++;
    outstanding.set(con, waiting + 1);
  };
  proto.sync = function (...args) {
    sent(this);
    return sync.apply(this, args);
  };
  proto.query = function (...args) {
    sent(this);
    return query.apply(this, args);
  };
  proto.emit = function (event, ...args) {
    // The answer to the connection's start-up has no request counted here: never below zero.
    if (event === "readyForQuery")
      outstanding.set(this, Math.max(0, (outstanding.get(this) ?? 0) - 1));
    return emit.call(this, event, ...args);
  };
  try {
    await work();
  } finally {
    HOOKED.forEach((name, i) => {
      const own = saved[i];
      if (own) Object.defineProperty(proto, name, own);
      else delete proto[name];
    });
  }
  return trips;
}
