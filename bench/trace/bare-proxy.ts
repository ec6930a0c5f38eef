/**
 * The floor of `trace record`'s benchmark: the least an HTTP proxy hop costs in Node — a bare
 * pass-through (kept-alive upstream sockets, bodies piped, no guard, no recording). Prints its URL as
 * `trace record` does. Usage: node --import tsx bench/trace/bare-proxy.ts --upstream URL
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

const upstream = new URL(process.argv[process.argv.indexOf("--upstream") + 1]);
const agent = new http.Agent({ keepAlive: true });
const server = http.createServer((req, res) => {
  const out = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      path: req.url,
      method: req.method,
      headers: { ...req.headers, host: upstream.host },
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  req.pipe(out);
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`recording proxy on http://127.0.0.1:${port}${upstream.pathname}\n`);
});
process.on("SIGTERM", () => process.exit(0));
