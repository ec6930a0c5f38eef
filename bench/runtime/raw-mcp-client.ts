import http from "node:http";

/** What a raw call got back: the HTTP status and the JSON-RPC message, if the body was JSON. */
export interface RawAnswer {
  status: number;
  message?: {
    result?: {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content?: unknown[];
      /** A `tools/list` result's tools. */
      tools?: unknown[];
    };
    error?: { code: number; message: string };
  };
}

/** The per-request `_meta` of MCP 2026-07-28, as the SDK v2 client sends it. */
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * A minimal MCP 2026-07-28 `tools/call` (and `tools/list`) sender for load generation: one
 * keep-alive HTTP POST per call, exactly the headers and envelope the SDK v2 client sends, none of
 * its client-side work, so the server (not the load generator) is what the benchmark measures.
 */
export class RawMcpCaller {
  private readonly agent: http.Agent;
  private readonly url: URL;
  private id = 0;

  /**
   * `tokenFor` chooses the bearer token of a call from its arguments (the learner the session
   * belongs to), as a host sends each user's token; undefined sends none.
   */
  constructor(
    url: string,
    connections: number,
    private readonly tokenFor: (args: Record<string, unknown>) => string | undefined = () =>
      undefined,
  ) {
    this.url = new URL(url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  /** Call a tool; resolves with the JSON-RPC result (throws on a transport or protocol error). */
  async call(
    name: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<{ isError?: boolean; structuredContent?: Record<string, unknown> }> {
    const { status, message } = await this.send(name, args, meta);
    if (message?.result) return message.result;
    throw new Error(`MCP error: ${message?.error?.message ?? status}`);
  }

  /**
   * Call a tool and resolve with the HTTP status and the parsed JSON-RPC message (undefined when
   * the body is not JSON); rejects only on a transport error (connection refused or reset).
   */
  send(
    name: string,
    args: Record<string, unknown>,
    /** Further request `_meta` members (e.g. the definition tags a host holds). */
    meta?: Record<string, unknown>,
  ): Promise<RawAnswer> {
    return this.post(
      "tools/call",
      { name, arguments: args, _meta: { ...META, ...meta } },
      this.tokenFor(args),
      name,
    );
  }

  /** `tools/list` with `token` (a host lists with its user's token); resolves like `send`. */
  listTools(token?: string): Promise<RawAnswer> {
    return this.post("tools/list", { _meta: META }, token);
  }

  /** One JSON-RPC request as the SDK v2 client posts it (`mcpName`: the Mcp-Name header). */
  private post(
    method: string,
    params: Record<string, unknown>,
    token: string | undefined,
    mcpName?: string,
  ): Promise<RawAnswer> {
    const body = JSON.stringify({ jsonrpc: "2.0", id: ++this.id, method, params });
    return new Promise((resolve, reject) => {
      const req = http.request(
        this.url,
        {
          method: "POST",
          agent: this.agent,
          headers: {
            accept: "application/json, text/event-stream",
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "mcp-method": method,
            ...(mcpName && { "mcp-name": mcpName }),
            "mcp-protocol-version": "2026-07-28",
            ...(token && { authorization: `Bearer ${token}` }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", reject);
          res.on("end", () => {
            let message: RawAnswer["message"];
            try {
              message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RawAnswer["message"];
            } catch {
              message = undefined;
            }
            resolve({ status: res.statusCode ?? 0, message });
          });
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        // The server closed an idle keep-alive connection just as this request went out on it
        // (it never read it): send it again on a new one, as Node's documentation advises.
        if (req.reusedSocket && error.code === "ECONNRESET")
          this.post(method, params, token, mcpName).then(resolve, reject);
        else reject(error);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
