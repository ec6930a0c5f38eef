import type { Caller } from "../auth/auth-runtime.js";
import type { Keyring } from "../capability/index.js";
import type { Curriculum } from "./curriculum.js";
import type { LineSource } from "./line-source.js";
import type { CoachStore, SessionRecord } from "./ports/coach-store.js";

/**
 * What the handlers, the session gate and the write pipeline may use: the few shared services
 * of the domain, picked from the composition root's `RuntimeServices` once per call. Nothing
 * else of the server (its HTTP edge, logger, metrics, secrets) is reachable from a handler.
 */
export interface HandlerDeps {
  readonly store: CoachStore;
  readonly curriculum: Curriculum;
  /** Capability and option-payload keys (C11). */
  readonly keyring: Keyring;
  /** The state schema version a full context names. */
  readonly stateSchemaVersion: number;
  /** How long a write's stored answer is replayed (G6). */
  readonly idempotencyTtlSeconds: number;
}

/**
 * The contract major a call is served under (its endpoint's): the sessions it serves are pinned
 * to this major and workflow version, under this line.
 */
export interface ServedTarget {
  contractMajor: number;
  workflowVersion: string;
  line: LineSource;
}

/**
 * A session that passed the gate. `policyRevision` is the line's revision when it launched;
 * `policyRevisionInForce` the line's revision this call runs under, read once by the gate so that
 * every capability the call checks or issues uses the same one.
 */
export interface OpenSession extends SessionRecord {
  readonly policyRevisionInForce: number;
}

/** The `Ctx` every handler of the generated `CoachHandlers<Ctx>` receives. */
export interface CallContext {
  deps: HandlerDeps;
  /** The contract major the call was made on (its endpoint's): its sessions, line and tools. */
  contract: ServedTarget;
  /** The clock reading of this call: one per call, so every timestamp in it agrees. */
  now: Date;
  /** The signed-in caller (verified access token), when the call carried one. */
  caller?: Caller;
  /**
   * The provider lane whose endpoint the call came in on (the internal adapters serve the openai
   * lane's sessions). Absent only in contexts built by hand for unit tests: the openai lane.
   */
  lane?: string;
  /** The session once it passed the gate (step 2), with the line revision this call runs under. */
  session?: OpenSession;
  /**
   * Widget-private data a UI-bound tool returns in the result's `_meta`, never in structuredContent
   * (C9).
   */
  widgetMeta?: Record<string, unknown>;
  /**
   * The tool's answer for this caller from its handler's output (tools named as the caller's
   * definitions name them, an adapter's mapping) checked against the caller's output schema;
   * throws to refuse. Set by the served contract; a write handler applies it inside its
   * transaction, before commit, and sets `answered`.
   */
  answer?: (output: unknown) => Promise<unknown>;
  /** True once the handler applied `answer` itself (a write, or its replay). */
  answered?: boolean;
  /** The tool name the caller called (a superseded name for a call served through its adapter). */
  calledTool?: string;
}
