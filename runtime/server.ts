import http from "node:http";
import type { AddressInfo } from "node:net";
import { bodyParser } from "@koa/bodyparser";
import { Router } from "@koa/router";
import Koa from "koa";
import type { CoachHandlers } from "../generated/handlers.gen.js";
import { closeServices } from "./boot.js";
import { coachHandlers } from "./domain/handlers/index.js";
import { configuredHostnames, hostGuard } from "./http/host-guard.js";
import { isLoopbackHost, launchAuth, launchMcpUrl } from "./http/launch-auth.js";
import { launchRoute } from "./http/launch.route.js";
import { mcpRoute } from "./http/mcp.route.js";
import { startPage } from "./http/start-page.js";
import { createCoachMcpHandler } from "./mcp/endpoint.js";
import { defaultLaunchUrl, urlHost } from "./config.js";
import type { CallContext, RuntimeServices } from "./services.js";

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** The MCP endpoint URL. */
  mcpUrl: string;
  port: number;
  /** Stop accepting, let in-flight requests finish, then close the MCP handler and the database. */
  close(): Promise<void>;
}

const IDEMPOTENCY_PURGE_MS = 5 * 60_000;

/**
 * Build the Koa app: host guard, `/healthz`, `/metrics`, the first-party launch API and start
 * page, and the MCP endpoint at `/mcp` (mounted raw: Koa hands the Node request to the SDK).
 */
export function createApp(
  services: RuntimeServices,
  handlers: CoachHandlers<CallContext> = coachHandlers,
) {
  const { config, identity } = services;
  // The bound origin is known once listening; until then (and without a server) it is the
  // configured one.
  let boundOrigin = `http://${config.host}:${config.port}`;
  const mcpUrl = () => launchMcpUrl(config.publicUrl, config.host, boundOrigin, identity.mcpUrl);
  const mcp = createCoachMcpHandler(services, handlers);
  const app = new Koa();
  // A thrown route error is answered by Koa; the log gets its name and status only, because a
  // parser's message can quote the request body.
  app.silent = true;
  app.on("error", (error: Error & { status?: number }) =>
    services.logger.warn({ err: error.name, status: error.status ?? 500 }, "http error"),
  );
  const router = new Router();
  router.get("/healthz", (ctx) => {
    ctx.body = {
      status: "ok",
      contractMajor: services.identity.contractMajor,
      serverBuild: services.identity.serverBuild,
    };
  });
  router.get("/metrics", async (ctx) => {
    ctx.type = services.metrics.registry.contentType;
    ctx.body = await services.metrics.registry.metrics();
  });
  router.get("/start", startPage({ launchKeyRequired: !isLoopbackHost(config.host) }));
  // An unparsable or oversized body leaves the body unset; the launch route answers INVALID_INPUT.
  const parseLaunchBody = bodyParser({
    enableTypes: ["json"],
    jsonLimit: "16kb",
    onError: () => undefined,
  });
  // Beyond loopback anyone on the network could mint sessions: demand the first-party secret there.
  const requireSecret = isLoopbackHost(config.host) ? undefined : services.launchSecret;
  router.post(
    "/api/sessions",
    launchAuth(requireSecret),
    parseLaunchBody,
    launchRoute(services, mcpUrl),
  );
  router.all("/mcp", mcpRoute(mcp));
  app.use(hostGuard(configuredHostnames(services.config.host, services.config.allowedHosts)));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return {
    app,
    mcp,
    setBoundOrigin: (origin: string) => {
      boundOrigin = origin;
    },
  };
}

/** Start the HTTP server on the configured host and port (0 = any free port). */
export async function startServer(
  services: RuntimeServices,
  handlers?: CoachHandlers<CallContext>,
): Promise<RunningServer> {
  const { app, mcp, setBoundOrigin } = createApp(services, handlers);
  const handle = app.callback();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const server = http.createServer((req, res) => {
    inFlight++;
    res.once("close", () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(services.config.port, services.config.host, () => resolve());
  });
  const purge = setInterval(
    () => void services.store.purgeExpired(Date.now()).catch(() => undefined),
    IDEMPOTENCY_PURGE_MS,
  );
  purge.unref();
  await services.store.purgeExpired(services.now().getTime());

  const { port } = server.address() as AddressInfo;
  const origin = `http://${urlHost(services.config.host)}:${port}`;
  setBoundOrigin(origin);
  // A start page derived from host and port (not configured) names the port actually bound (--port
  // 0).
  if (services.config.launchUrl === defaultLaunchUrl(services.config.host, services.config.port))
    services.config.launchUrl = `${origin}/start`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(purge);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      server.closeAllConnections();
      await stopped;
      await mcp.close();
      await closeServices(services);
    })());
  return { origin, mcpUrl: `${origin}/mcp`, port, close };
}
