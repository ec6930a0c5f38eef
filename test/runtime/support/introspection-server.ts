import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** How the hand-written introspection endpoint answers next. */
export type IntrospectionMode =
  | "active"
  | "down"
  | "not-json"
  | "server-error"
  | "inactive"
  | "other-audience"
  | "no-audience"
  | "read-only";

/** What the endpoint knows of one token it issued. */
export interface IssuedToken {
  subject: string;
  audience: string;
  scopes: readonly string[];
  clientId: string;
  expiresAt: number;
}

/** A tiny RFC 7662 endpoint answering like Google's for `ya29.` tokens, switchable to failures. */
export interface IntrospectionServer {
  endpoint: string;
  clientId: string;
  clientSecret: string;
  /** Introspection requests received (with valid client authentication or not). */
  requests: number;
  mode: IntrospectionMode;
  /** Issue an opaque Google-shaped token (`ya29.` and random text). */
  issue(token: Omit<IssuedToken, "expiresAt"> & { ttlSeconds?: number }): string;
  close(): Promise<void>;
}

/** Start the endpoint on a loopback port. */
export async function startIntrospectionServer(): Promise<IntrospectionServer> {
  const tokens = new Map<string, IssuedToken>();
  const clientId = "skillpilot-resource-server";
  const clientSecret = randomBytes(12).toString("hex");
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
  const state = { requests: 0, mode: "active" as IntrospectionMode };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      state.requests++;
      if (state.mode === "down") return req.socket.destroy();
      if (state.mode === "server-error") {
        res.writeHead(500, { "content-type": "application/json" });
        return res.end('{"error":"server_error"}');
      }
      if (state.mode === "not-json") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<html>maintenance</html>");
      }
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || req.headers.authorization !== basic)
        return json(401, { error: "invalid_client" });
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      const known = tokens.get(form.get("token") ?? "");
      if (!known || state.mode === "inactive" || known.expiresAt < Date.now() / 1000)
        return json(200, { active: false });
      const scopes = state.mode === "read-only" ? ["coach.read"] : known.scopes;
      return json(200, {
        active: true,
        sub: known.subject,
        client_id: known.clientId,
        scope: scopes.join(" "),
        exp: known.expiresAt,
        token_type: "Bearer",
        ...(state.mode !== "no-audience" && {
          aud: state.mode === "other-audience" ? "https://other.example/mcp" : known.audience,
        }),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/introspect`,
    clientId,
    clientSecret,
    get requests() {
      return state.requests;
    },
    set requests(n) {
      state.requests = n;
    },
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    issue({ ttlSeconds = 3600, ...token }) {
      const value = `ya29.${randomBytes(24).toString("base64url")}`;
      tokens.set(value, { ...token, expiresAt: Math.floor(Date.now() / 1000) + ttlSeconds });
      return value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
