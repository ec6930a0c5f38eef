import http from "node:http";

/** What a request through the proxy got: its status, body and whether the answer was cut. */
export interface ProxiedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body (only its last `keep` bytes when `keep` is given). */
  body: Buffer;
  /** Bytes of the body received. */
  bytes: number;
  /** The connection ended before the answer was complete. */
  cut: boolean;
}

/**
 * One HTTP request to `url` (any `Host` may be set, unlike with fetch), resolving when the answer
 * ends or is cut; rejects only when no answer starts (a refused or reset connection). With `keep`,
 * only the last `keep` bytes of the body are held, so a huge answer costs no memory here.
 */
export function request(
  url: string,
  options: {
    method?: string;
    headers?: http.OutgoingHttpHeaders;
    body?: string | Buffer;
    keep?: number;
    timeoutMs?: number;
  } = {},
): Promise<ProxiedAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? "POST",
        headers: { "content-type": "application/json", ...options.headers },
        agent: false,
      },
      (res) => {
        let chunks: Buffer[] = [];
        let held = 0;
        let bytes = 0;
        res.on("data", (c: Buffer) => {
          bytes += c.length;
          chunks.push(c);
          held += c.length;
          if (options.keep !== undefined && held > 2 * options.keep) {
            const tail = Buffer.concat(chunks).subarray(-options.keep);
            chunks = [tail];
            held = tail.length;
          }
        });
        const done = (cut: boolean) => {
          clearTimeout(timer);
          if (hung) {
            reject(new Error(`no end within ${options.timeoutMs ?? 30_000} ms: the client hangs`));
            return;
          }
          let body = Buffer.concat(chunks);
          if (options.keep !== undefined) body = body.subarray(-options.keep);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bytes, cut });
        };
        res.on("end", () => done(!res.complete));
        res.on("error", () => done(true));
        res.on("close", () => {
          if (!res.complete) done(true);
        });
      },
    );
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      req.destroy(new Error(`no end within ${options.timeoutMs ?? 30_000} ms: the client hangs`));
    }, options.timeoutMs ?? 30_000);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body);
  });
}

/** A JSON-RPC request body. */
export const rpc = (id: number, method: string, params: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });
