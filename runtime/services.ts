import type { AuthRuntime } from "./auth/auth-runtime.js";
import type { Logger } from "pino";
import type { Keyring } from "./capability/index.js";
import type { RuntimeConfig } from "./config/config.js";
import type { Curriculum } from "./domain/curriculum.js";
import type { LineSource } from "./domain/line-source.js";
import type { RuntimeIdentity } from "./identity.js";
import type { ServablePages } from "./mcp/ui-resources.js";
import type { RuntimeMetrics } from "./observability/metrics.js";
import type { TurnMonitor } from "./observability/turn-monitor.js";
import type { TrafficTaps } from "./observability/traffic-taps.js";
import type { HandlerDeps } from "./domain/call-context.js";
import type { CoachStore } from "./domain/ports/coach-store.js";
import type { StateGuard } from "./state-guard.js";

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

/**
 * What the handlers of a call get of the services (`HandlerDeps`): picked field by field, so a
 * handler cannot reach the rest of the server.
 */
export function handlerDeps(services: RuntimeServices): HandlerDeps {
  return {
    store: services.store,
    curriculum: services.curriculum,
    keyring: services.keyring,
    stateSchemaVersion: services.identity.stateSchemaVersion,
    idempotencyTtlSeconds: services.config.idempotencyTtlSeconds,
  };
}
