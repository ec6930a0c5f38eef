import http from "node:http";
import type { AddressInfo } from "node:net";
import { StartupError } from "../config/startup-error.js";

/** A bound listening socket whose request handler is attached once the server is ready. */
export interface BoundListener {
  server: http.Server;
  /** The port actually bound (differs from the requested one for port 0). */
  port: number;
  /** Serve requests with `handler` from now on. */
  attach(handler: http.RequestListener): void;
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case "EADDRINUSE":
      return new StartupError(
        "PORT_IN_USE",
        `port ${port} on ${host} is already in use (another server is listening there): ` +
          `stop it, or pick another port with --port N or PORT=N (--port 0 picks a free one)`,
      );
    case "EACCES":
      return new StartupError(
        "LISTEN_FAILED",
        `not allowed to listen on ${host}:${port} (ports below 1024 need privileges): ` +
          `pick another port with --port N`,
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return new StartupError(
        "LISTEN_FAILED",
        `cannot listen on ${host}: it is not an address of this machine; use --host 127.0.0.1 ` +
          `(loopback) or the address of one of its interfaces`,
      );
    default:
      return new StartupError("LISTEN_FAILED", `cannot listen on ${host}:${port} (${error.code})`);
  }
}

/**
 * Bind the listening socket first, before any database, secret or log file is created: a port in
 * use fails here with nothing written. Requests that arrive before `attach` get 503 and
 * Retry-After.
 */
export async function bindListener(host: string, port: number): Promise<BoundListener> {
  let handler: http.RequestListener | undefined;
  const server = http.createServer((req, res) => {
    if (handler) return handler(req, res);
    res.writeHead(503, { "retry-after": "1", "content-type": "text/plain" });
    res.end("starting\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    attach: (h) => {
      handler = h;
    },
  };
}
