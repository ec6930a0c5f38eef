import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import knexFactory, { type Knex } from "knex";
import type { CoachHandlers } from "../../../generated/handlers.gen.js";
import {
  type ConfigOverrides,
  isLoopbackHost,
  loadConfig,
} from "../../../runtime/config/config.js";
import { type RunningServer, serve } from "../../../runtime/server.js";
import type { ServeOptions } from "../../../runtime/served-contracts.js";
import type { CallContext } from "../../../runtime/domain/call-context.js";
import type { RuntimeServices } from "../../../runtime/services.js";
import { databaseFileName } from "../../../runtime/store/sqlite-store.js";
import { repoRoot } from "../../support/temp-project.js";
import { createTestIssuer } from "./test-issuer.js";
import {
  type Authorizer,
  type CoachClient,
  connectClient,
  type Era,
  type McpTarget,
} from "./mcp-clients.js";

/** The repository root (schemas/, release/, curricula/). */
export { repoRoot };

/** Options of a development access token minted by a fixture. */
export interface TokenOptions {
  scopes?: readonly string[];
  ttlSeconds?: number;
  issuedAt?: number;
  notBefore?: number;
  audience?: string;
  issuer?: string;
  clientId?: string;
}

/** A real server on an ephemeral port with its own data directory, database file and log file. */
export interface RuntimeFixture extends McpTarget {
  server: RunningServer;
  services: RuntimeServices;
  dir: string;
  dbFile: string;
  logFile: string;
  /** A knex connection to the same database file, for assertions. */
  db: Knex;
  /** POST /api/sessions. */
  launch(body: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Launch and return the session id (fails the test otherwise). */
  newSession(learner: string, locale?: "en" | "de", lane?: string): Promise<string>;
  /** An access token of the server's development issuer for `learner` (all scopes by default). */
  token(learner: string, options?: TokenOptions): Promise<string>;
  /** The learner each session launched through this fixture belongs to. */
  learnerOf: Map<string, string>;
  /** Like `authorize`, with tokens for another OAuth resource (a provider lane's). */
  authorizeOn(resource: string): Authorizer;
  /** Stop the server, then read every log line written. */
  stopAndReadLog(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Start a fixture server; `overrides` adjust the config (e.g. a different line file), `root` the
 * project it serves.
 */
export async function startFixture(
  overrides: ConfigOverrides = {},
  serving?: CoachHandlers<CallContext> | ServeOptions,
  root = repoRoot,
): Promise<RuntimeFixture> {
  // A bare handler map (what most tests pass) serves the primary contract with those handlers.
  const options: ServeOptions | undefined =
    serving &&
    ["handlers", "adapters", "contract", "contracts", "heldDefinitionAdapters"].some(
      (key) => key in serving,
    )
      ? (serving as ServeOptions)
      : serving
        ? { handlers: serving as CoachHandlers<CallContext> }
        : undefined;
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-runtime-"));
  const logFile = path.join(dir, "calls.log");
  // Where the development issuer cannot run (beyond loopback, PostgreSQL), a test issuer signs.
  const needsIssuer =
    !overrides.auth?.issuer &&
    (overrides.databaseUrl !== undefined ||
      (overrides.host !== undefined && !isLoopbackHost(overrides.host)));
  const testIssuer = needsIssuer ? await createTestIssuer() : undefined;
  // A start that is refused (what many tests assert) leaves nothing behind either.
  const removeAll = async () => {
    await testIssuer?.close();
    await rm(dir, { recursive: true, force: true });
  };
  let started: Awaited<ReturnType<typeof serve>>;
  try {
    const config = await loadConfig(
      root,
      {
        port: 0,
        dataDir: path.join(dir, "data"),
        logDestination: logFile,
        ...overrides,
        ...(testIssuer && { auth: { ...testIssuer.config(), ...overrides.auth } }),
      },
      {},
    );
    started = await serve(config, options);
  } catch (error) {
    await removeAll();
    throw error;
  }
  const { running: server, services } = started;
  const config = services.config;
  const dbFile = path.join(config.dataDir, databaseFileName);
  const db = knexFactory({
    client: "better-sqlite3",
    connection: { filename: dbFile },
    useNullAsDefault: true,
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
  };
  const learnerOf = new Map<string, string>();
  const launch = async (body: Record<string, unknown>) => {
    const res = await fetch(`${server.origin}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status === 201 && typeof body.learner === "string")
      learnerOf.set(answer.learningSessionId as string, body.learner.trim());
    return { status: res.status, body: answer };
  };
  const { settings, devIssuer } = services.auth;
  const token = async (learner: string, options: TokenOptions = {}) => {
    const signer = devIssuer ?? testIssuer;
    if (!signer) throw new Error("this fixture's issuer is configured elsewhere: mint its tokens");
    return signer.mint({
      issuer: options.issuer ?? settings.issuer,
      audience: options.audience ?? settings.resource,
      subject: learner,
      scopes: options.scopes ?? settings.scopesSupported,
      ...options,
    });
  };
  // A host sends each call with the token of the learner it is for: the learner of the session a
  // tool call names, a default test learner for everything else.
  const authorizeOn =
    (audience: string): Authorizer =>
    async (body) => {
      const args = (
        body as { params?: { arguments?: { learningSessionId?: unknown } } } | undefined
      )?.params?.arguments;
      const sid = typeof args?.learningSessionId === "string" ? args.learningSessionId : undefined;
      return token((sid && learnerOf.get(sid)) || "fixture-default-learner", { audience });
    };
  const authorize = authorizeOn(settings.resource);
  return {
    mcpUrl: server.mcpUrl,
    authorize,
    authorizeOn,
    token,
    learnerOf,
    server,
    services,
    dir,
    dbFile,
    logFile,
    db,
    launch,
    async newSession(learner, locale = "en", lane) {
      const res = await launch({ learner, locale, ...(lane && { lane }) });
      if (res.status !== 201)
        throw new Error(`launch failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.learningSessionId as string;
    },
    async stopAndReadLog() {
      await stop();
      return readFile(logFile, "utf8");
    },
    async close() {
      await stop();
      await db.destroy();
      await removeAll();
    },
  };
}

/**
 * A suite's fixture server and its connected client, readable once the suite's `before` hooks ran.
 */
export interface ServedClient {
  readonly fx: RuntimeFixture;
  readonly client: CoachClient;
}

/**
 * Registers, in the calling `describe`, a `before` hook that starts a fixture server and connects
 * a client of `era` to it, and an `after` hook that closes the client, then the fixture (whichever
 * of them a failed `before` got to start). `fixture` is either config overrides for
 * {@link startFixture} or a factory that starts the fixture itself (e.g. after writing a line file
 * or building a project root). Mocha runs hooks in registration order: a `before` registered after
 * this call sees the connected client, an `after` registered after it runs once both are closed.
 */
export function useServedClient(
  era: Era,
  fixture: ConfigOverrides | (() => Promise<RuntimeFixture>) = {},
  /** The endpoint path to connect to (default the public `/mcp`), e.g. an internal adapter. */
  path?: string,
  /** A provider lane to connect to instead, with tokens for its resource. */
  lane?: string,
): ServedClient {
  let fx: RuntimeFixture | undefined;
  let client: CoachClient | undefined;
  before(async () => {
    fx = await (typeof fixture === "function" ? fixture() : startFixture(fixture));
    const served = lane ? fx.services.auth.settings.lanes.find((l) => l.id === lane) : undefined;
    if (lane && !served) throw new Error(`useServedClient: the server has no lane ${lane}`);
    client = await connectClient(
      served
        ? {
            mcpUrl: `${fx.server.origin}${served.mcpPath}`,
            authorize: fx.authorizeOn(served.resource),
          }
        : path
          ? { mcpUrl: `${fx.server.origin}${path}`, authorize: fx.authorize }
          : fx,
      era,
    );
  });
  after(async () => {
    try {
      await client?.close();
    } finally {
      await fx?.close();
    }
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined)
      throw new Error(
        `useServedClient: ${name} is read before the suite's before hook connected it`,
      );
    return value;
  };
  return {
    get fx() {
      return started(fx, "fx");
    },
    get client() {
      return started(client, "client");
    },
  };
}
