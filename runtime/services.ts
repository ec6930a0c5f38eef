import type { AuthRuntime, Caller } from "./auth/auth-runtime.js";
import type { Logger } from "pino";
import type { Keyring } from "./capability/index.js";
import type { RuntimeConfig } from "./config/config.js";
import type { Curriculum } from "./domain/curriculum.js";
import type { LineSource } from "./domain/line-source.js";
import type { RuntimeIdentity } from "./identity.js";
import type { ServedContract } from "./mcp/served-contract.js";
import type { ServablePages } from "./mcp/ui-resources.js";
import type { RuntimeMetrics } from "./observability/metrics.js";
import type { TurnMonitor } from "./observability/turn-monitor.js";
import type { TrafficTaps } from "./observability/traffic-taps.js";
import type { OpenSession } from "./domain/session-gate.js";
import type { CoachStore, SessionRecord } from "./store/store.js";
import type { StateGuard } from "./state-guard.js";
import type { Locale } from "./i18n/index.js";

/** Everything a request may use, built once at start-up and shared by all requests. */
export interface RuntimeServices {
  config: RuntimeConfig;
  identity: RuntimeIdentity;
  curriculum: Curriculum;
  /** The UI pages, loaded and verified once at boot (L10). */
  uiPages: ServablePages;
  /**
   * The contract line in force now (re-read when the file changes): its policyRevision gates
   * sessions and capabilities (L11).
   */
  line: LineSource;
  store: CoachStore;
  /**
   * The database's start-up guard: state schema checked and migrated, policy revision floor (L11,
   * L12.5). Absent only in services built by hand for unit tests.
   */
  stateGuard?: StateGuard;
  /** Capability and option-payload keys (C11). */
  keyring: Keyring;
  /** Key of the log fingerprint of session ids (L13). */
  logHmacKey: string;
  /** Bearer secret the launch API demands when the server binds beyond loopback. */
  launchSecret: string;
  /** The OAuth resource server: settings and the token verifier (issue #12, L1, L14). */
  auth: AuthRuntime;
  logger: Logger;
  metrics: RuntimeMetrics;
  /** Counts the hosts' turn-contract deviations; never refuses a call (C2, G10). */
  turnMonitor?: TurnMonitor;
  /** What sees the raw MCP traffic, when configured: a self-trace, OpenTelemetry spans. */
  traffic?: TrafficTaps;
  /** The clock; tests may pin it. */
  now: () => Date;
}

/** Facts gathered while a call runs, for its log line (L13). */
export interface CallFacts {
  /** The session the call named, once found (for the log line; its owner is not yet checked). */
  session?: SessionRecord;
  /**
   * The language of the answer: the session's, set only once the gate found the session is the
   * caller's own, so a refusal never tells another learner anything about it (C3, L14).
   */
  locale?: Locale;
  stateVersion?: number;
  clientRequestId?: string;
}

/** The `Ctx` every handler of the generated `CoachHandlers<Ctx>` receives. */
export interface CallContext {
  services: RuntimeServices;
  /**
   * The contract major the call was made on (its endpoint's): its sessions, line and tools. Absent
   * only in contexts built by hand for unit tests, which run under the primary contract.
   */
  contract?: ServedContract;
  /** The clock reading of this call: one per call, so every timestamp in it agrees. */
  now: Date;
  facts: CallFacts;
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
