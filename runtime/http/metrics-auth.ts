import type { Middleware } from "koa";
import { requireBearer } from "./launch-auth.js";

/**
 * Who may read `GET /metrics`. With a configured `metricsToken`, only a request carrying it as
 * `Authorization: Bearer …` (on any host). Without one, a server bound to loopback serves it as
 * before, and a server reachable beyond loopback refuses it (403): call counts and latencies per
 * tool and result code are operational data, not for anyone on the network. A reverse proxy on the
 * same host makes every peer look like loopback, so the peer address decides nothing.
 */
export function metricsAuth(token: string | undefined, loopback: boolean): Middleware {
  return async (ctx, next) => {
    if (token !== undefined) {
      if (!requireBearer(ctx, token, "skillpilot-metrics", "/metrics needs the metrics token"))
        return;
    } else if (!loopback) {
      ctx.status = 403;
      ctx.body = {
        error: "forbidden",
        reason: "/metrics is served beyond loopback only with a metrics token (metricsToken)",
      };
      return;
    }
    await next();
  };
}
