import { bodyParser } from "@koa/bodyparser";
import { Router } from "@koa/router";
import type { McpHttpHandler } from "@modelcontextprotocol/server";
import Koa from "koa";
import {
  activateClientPolicy,
  clientPolicyHeartbeat,
  deregisterInstance,
  newInstanceId,
  HEARTBEAT_MS,
  policySetHash,
} from "./auth/client-policy.js";
import { PolicyLease } from "./auth/policy-lease.js";
import { closeServices, createServices } from "./boot.js";
import { hostGuard, originPolicy } from "./http/host-guard.js";
import { launchAuth, launchMcpUrl } from "./http/launch-auth.js";
import { launchRoute } from "./http/launch.route.js";
import { mcpEdge } from "./http/mcp-edge.js";
import { type McpMount, mcpMounts } from "./lanes/mcp-mounts.js";
import { rollbackIncompatibility } from "./auth/rollback-compatibility.js";
import { liveApprovedDefinitions } from "../evolution/approved-definitions.js";
import { metricsAuth } from "./http/metrics-auth.js";
import { wellKnownRoutes } from "./http/well-known.route.js";
import {
  readServedStatement,
  type ServedStatement,
  statementRoutes,
} from "./http/statement.route.js";
import { startPage } from "./http/start-page.js";
import { startPageFiles } from "./http/start-page-files.js";
import { signedInOr, startPageSignIn } from "./http/sign-in.js";
import { createCoachMcpHandler } from "./mcp/endpoint.js";
import { isLoopbackHost, type RuntimeConfig, urlHost, withBoundPort } from "./config/config.js";
import { type BoundListener, bindListener } from "./http/listener.js";
import { type MountedContract, mountContracts, type ServeOptions } from "./served-contracts.js";
import type { RuntimeServices } from "./services.js";
import { storageId } from "./storage-id.js";

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** The MCP endpoint URL. */
  mcpUrl: string;
  port: number;
  /** Stop accepting, let in-flight requests finish, then close the MCP handler and the database. */
  close(): Promise<void>;
  /** Settles when the server stopped: closed, or stopped itself on a client-policy conflict. */
  stopped: Promise<StopReason>;
}

/** Why a server stopped. */
export type StopReason = "closed" | "client-policy-conflict";

const IDEMPOTENCY_PURGE_MS = 5 * 60_000;

/**
 * Build the Koa app: host guard, `/healthz`, `/metrics`, the first-party launch API and start
 * page, and every MCP endpoint of the mount table (`lanes/mcp-mounts.ts`), each behind the one
 * `/mcp` edge (`http/mcp-edge.ts`, which hands the Node request to the SDK).
 * `policy`: the client policy lease every request with a token is checked against (L14).
 */
export function createApp(
  services: RuntimeServices,
  contracts: readonly MountedContract[],
  policy?: Pick<PolicyLease, "current">,
  /** The signed statement of approved definitions, served with `definitionTags` on. */
  statement?: ServedStatement,
) {
  const { config, identity } = services;
  // The configuration names the port actually bound (see `serve`).
  const boundOrigin = `http://${urlHost(config.host)}:${config.port}`;
  const mcpUrl = () => launchMcpUrl(config.publicUrl, config.host, boundOrigin, identity.mcpUrl);
  // Every MCP endpoint, from one table: the public /mcp, each contract major at its internal adapter
  // path, every other provider lane at its own path (schemas/lanes.json). One SDK handler per
  // contract major and lane, shared by the mounts that serve both alike.
  const mounts = mcpMounts(
    contracts.map((c) => ({ path: c.path, contractMajor: c.served.contractMajor })),
    services.auth.settings.lanes,
  );
  const handlers = new Map<string, McpHttpHandler>();
  const handlerOf = (mount: McpMount): McpHttpHandler => {
    const key = `${mount.contractMajor} ${mount.lane.id}`;
    let handler = handlers.get(key);
    if (!handler) {
      const mounted = contracts.find((c) => c.served.contractMajor === mount.contractMajor);
      if (!mounted) throw new Error(`no contract major ${mount.contractMajor} is mounted`);
      handler = createCoachMcpHandler(
        services,
        mounted.served,
        { id: mount.lane.id, openaiMeta: mount.lane.openaiMeta },
        mounted.tagging,
      );
      handlers.set(key, handler);
    }
    return handler;
  };
  const mcp = {
    close: () => Promise.all([...handlers.values()].map((h) => h.close())).then(() => undefined),
  };
  const app = new Koa();
  // A thrown route error is answered by Koa; the log gets its name and status only, because a
  // parser's message can quote the request body.
  app.silent = true;
  app.on("error", (error: Error & { status?: number }) =>
    services.logger.warn({ err: error.name, status: error.status ?? 500 }, "http error"),
  );
  const router = new Router();
  // On loopback, where the CLI acts on the same machine, /healthz names where the data is kept, so
  // `auth token` and `session start` can refuse to act on another data directory than this one.
  const storage = isLoopbackHost(config.host) ? storageId(config) : undefined;
  router.get("/healthz", async (ctx) => {
    const id = await storage;
    ctx.body = {
      status: "ok",
      contractMajor: services.identity.contractMajor,
      contractMajors: contracts.map((c) => c.served.contractMajor),
      serverBuild: services.identity.serverBuild,
      ...(id && { storageId: id }),
    };
  });
  router.get(
    "/metrics",
    metricsAuth(config.metricsToken, isLoopbackHost(config.host)),
    async (ctx) => {
      ctx.type = services.metrics.registry.contentType;
      ctx.body = await services.metrics.registry.metrics();
    },
  );
  // With a start page client at the configured issuer, /start signs the learner in there.
  const signIn = startPageSignIn(services);
  router.get(
    "/start",
    startPage({
      launchKeyRequired: !isLoopbackHost(config.host),
      lanes: services.auth.settings.lanes.map((l) => l.id),
      identity: services.auth.settings.development ? "development" : signIn ? "signIn" : "name",
      signedIn: signIn?.signedIn,
    }),
  );
  // An unparsable or oversized body leaves the body unset; the launch route answers INVALID_INPUT.
  const parseLaunchBody = bodyParser({
    enableTypes: ["json"],
    jsonLimit: "16kb",
    onError: () => undefined,
  });
  // A launch is JSON only: a form or text post (what another site can make a browser send with the
  // sign-in cookie) starts nothing.
  const launchTakesJson: Koa.Middleware = async (ctx, next) => {
    if (ctx.is("application/json")) return next();
    ctx.status = 415;
    ctx.body = {
      error: "unsupported_media_type",
      error_description: "the launch API takes a JSON body (Content-Type: application/json)",
    };
  };
  // Beyond loopback anyone on the network could mint sessions: demand the first-party secret there.
  const requireSecret = isLoopbackHost(config.host) ? undefined : services.launchSecret;
  router.post(
    "/api/sessions",
    signedInOr(signIn, launchAuth(requireSecret)),
    launchTakesJson,
    parseLaunchBody,
    launchRoute(
      services,
      // A session of a further major is served on that major's endpoint only.
      (major) => {
        const own = contracts.find((c) => c.served.contractMajor === major);
        return major === undefined || major === identity.contractMajor || !own
          ? mcpUrl()
          : new URL(own.path, mcpUrl()).href;
      },
      (major) => contracts.find((c) => c.served.contractMajor === major)?.served,
      signIn?.signedIn,
    ),
  );
  for (const mount of mounts)
    router.all(
      mount.path,
      mcpEdge(handlerOf(mount), { auth: services.auth, lane: mount.lane, policy }),
    );
  const wellKnown = wellKnownRoutes(services.auth, identity.displayName);
  app.use(hostGuard(originPolicy(config)));
  app.use(router.routes());
  if (signIn) app.use(signIn.router.routes());
  app.use(wellKnown.routes());
  if (config.definitionTags) app.use(statementRoutes(statement).routes());
  app.use(router.allowedMethods());
  return { app, mcp };
}

/**
 * Serve `services` on a bound listener (see `bindListener`; its port must be the configured one, so
 * bind first and build the services from `withBoundPort`). Without a listener, binds the configured
 * port itself, which must then not be 0.
 */
export async function startServer(
  services: RuntimeServices,
  options: ServeOptions = {},
  bound?: BoundListener,
): Promise<RunningServer> {
  const { config } = services;
  if (!bound && config.port === 0)
    throw new Error("startServer: port 0 needs a listener bound first (use serve())");
  const listener = bound ?? (await bindListener(config.host, config.port));
  if (listener.port !== config.port)
    throw new Error("startServer: the services were built for another port than the one bound");
  const { server } = listener;
  // L14: activate this instance's client profiles (refused when another running instance serves
  // other ones, or on a rollback to a retired profile without a new policyRevision).
  const instanceId = newInstanceId();
  const profiles = services.auth.settings.profiles;
  // The release records, read once: what each endpoint lists, and what a rollback must serve.
  const live = await liveApprovedDefinitions(config.root).catch(() => undefined);
  const mounted = await mountContracts(services, options, live);
  const incompatibility = rollbackIncompatibility(
    live,
    mounted.map((m) => m.served),
    services.auth.settings.scopesSupported,
  );
  const leaseStart = PolicyLease.now();
  const activation = await activateClientPolicy(services.store, {
    instanceId,
    profiles,
    resource: services.auth.settings.policyResource,
    policyRevision: services.line.current()?.policyRevision ?? 0,
    now: new Date(),
    ...(incompatibility && { incompatibility }),
  });
  // Tokens a re-activated profile's client got before the re-activation need fresh authorization.
  services.auth.requireFreshAuthorization(activation.freshAuthorizationAfter);
  if (activation.activated.length || activation.retired.length)
    services.logger.info(
      { activated: activation.activated, retired: activation.retired },
      "client profiles activated",
    );
  // While serving, follow the policy revision floor other processes raise on the same database
  // (L11); this server raises it when it serves a call or a launch under a higher revision.
  services.stateGuard?.floor.refreshEvery();
  const registration = {
    instanceId,
    policySet: policySetHash(profiles),
    active: activation.active,
  };
  // Another instance that took over (this one's heartbeat went stale: frozen, cut off) has retired
  // this one's profiles: stop serving, as a failure the supervisor sees.
  const lease = new PolicyLease(
    () => clientPolicyHeartbeat(services.store, registration, new Date()),
    () => {
      services.auth.policyChanged();
      services.logger.error(
        "another instance activated different OAuth client profiles on this database: " +
          "this instance stops serving",
      );
      void close("client-policy-conflict");
    },
    leaseStart,
  );
  const statement = config.definitionTags ? await readServedStatement(config.root) : undefined;
  const { app, mcp } = createApp(services, mounted, lease, statement);
  const handle = app.callback();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  listener.attach((req, res) => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    void handle(req, res);
  });
  const purge = setInterval(
    () => void services.store.purgeExpired(Date.now()).catch(() => undefined),
    IDEMPOTENCY_PURGE_MS,
  );
  purge.unref();
  await services.store.purgeExpired(services.now().getTime());

  const origin = `http://${urlHost(config.host)}:${listener.port}`;
  let closing: Promise<void> | undefined;
  let stop: (reason: StopReason) => void = () => undefined;
  const stopped = new Promise<StopReason>((resolve) => (stop = resolve));
  const heartbeat = setInterval(() => void lease.renew().catch(() => undefined), HEARTBEAT_MS);
  heartbeat.unref();
  const close = (reason: StopReason = "closed") => {
    closing ??= (async () => {
      clearInterval(purge);
      clearInterval(heartbeat);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      server.closeAllConnections();
      await stopped;
      await mcp.close();
      await deregisterInstance(services.store, instanceId).catch(() => undefined);
      await closeServices(services);
      stop(reason);
    })();
    return closing;
  };
  return { origin, mcpUrl: `${origin}/mcp`, port: listener.port, close: () => close(), stopped };
}

/**
 * The start-up order of a real server: bind the port (nothing is created if that fails), complete
 * the configuration with the bound port, build the services (data directory, database, secrets),
 * then serve. The configuration is frozen from here on.
 */
export async function serve(
  config: RuntimeConfig,
  options: ServeOptions = {},
): Promise<{ running: RunningServer; services: RuntimeServices }> {
  const listener = await bindListener(config.host, config.port);
  let services: RuntimeServices | undefined;
  try {
    // The start page's files are read (and kept) before anything is created: one missing fails here.
    startPageFiles();
    services = await createServices(withBoundPort(config, listener.port));
    return { running: await startServer(services, options, listener), services };
  } catch (error) {
    await new Promise<void>((resolve) => listener.server.close(() => resolve()));
    if (services) await closeServices(services);
    throw error;
  }
}
