/**
 * The least any proxy process costs a call in `trace record`'s benchmark: a TCP relay that copies
 * bytes between the client's connection and one upstream connection of its own, parses nothing and
 * records nothing. The one change it makes is the request's `Host` (the upstream's loopback guard
 * answers only its own), found in the chunk it arrived in; a header split across two chunks is
 * passed on unchanged and refused upstream (403), so the benchmark fails loudly rather than
 * measuring a different path. Prints its URL as `trace record` does.
 * Usage: node --import tsx bench/trace/tcp-relay.ts --upstream URL
 */
import net from "node:net";

const upstream = new URL(process.argv[process.argv.indexOf("--upstream") + 1]);
const to = Buffer.from(`Host: ${upstream.host}\r\n`, "latin1");
let from = Buffer.alloc(0);

const server = net.createServer((client) => {
  const out = net.connect({ host: upstream.hostname, port: Number(upstream.port) });
  client.setNoDelay(true);
  out.setNoDelay(true);
  client.on("data", (chunk: Buffer) => {
    const at = chunk.indexOf(from);
    out.write(
      at < 0 ? chunk : Buffer.concat([chunk.subarray(0, at), to, chunk.subarray(at + from.length)]),
    );
  });
  client.on("end", () => out.end());
  out.pipe(client);
  client.on("error", () => out.destroy());
  out.on("error", () => client.destroy());
});
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as net.AddressInfo;
  from = Buffer.from(`Host: 127.0.0.1:${port}\r\n`, "latin1");
  process.stdout.write(`recording proxy on http://127.0.0.1:${port}${upstream.pathname}\n`);
});
process.on("SIGTERM", () => process.exit(0));
