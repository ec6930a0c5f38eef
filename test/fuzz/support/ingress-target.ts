import http from "node:http";
import { primaryContract } from "../../../runtime/primary-contract.js";
import { internalAdapterPath } from "../../../runtime/served-contracts.js";
import { seedArgumentPools } from "../../e2e/support/argument-pools.js";
import { CoachDriver } from "../../runtime/support/coach-driver.js";
import { type CoachClient, connectClient } from "../../runtime/support/mcp-clients.js";
import type { RuntimeFixture } from "../../runtime/support/runtime-fixture.js";
import type { IngressInput, IngressPools } from "./ingress-input.js";

/** What a request got back: the status and the body (cut at `MAX_ANSWER_BYTES`), or no answer. */
export type Answer =
  | { status: number; contentType: string; body: string }
  | { noAnswer: string }
  | { reset: string }
  | { unsendable: string };

/** How long a request may take before it counts as unanswered. */
const ANSWER_TIMEOUT_MS = 10_000;
/** How much of an answer is kept for the oracles. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * A fixture server as a fuzz target: the real `/mcp` edge (and every other MCP mount) on loopback,
 * with sessions, capabilities and tokens of real learners to build requests from. Requests go
 * over plain `node:http`, which sends what an SDK client never would (any header, any body).
 */
export class IngressTarget {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly tokens = new Map<string, string>();
  private readonly url: URL;

  private constructor(
    readonly fx: RuntimeFixture,
    readonly pools: IngressPools,
    /** The OAuth resource of each MCP mount path. */
    private readonly resources: Map<string, string>,
    private readonly client: CoachClient,
  ) {
    this.url = new URL(fx.server.origin);
  }

  /** Drive sessions on `fx` (a fresh server) for real values, then serve requests to it. */
  static async open(fx: RuntimeFixture, label = "ingress"): Promise<IngressTarget> {
    const client = await connectClient(fx, "2026-07-28 (SDK v2)");
    const args = await seedArgumentPools(new CoachDriver(client, fx), label);
    const { resources } = await client.listResources();
    const { lanes } = fx.services.auth.settings;
    const paths = new Map(lanes.map((lane) => [lane.mcpPath, lane.resource]));
    paths.set(internalAdapterPath(primaryContract as never), lanes[0].resource);
    return new IngressTarget(
      fx,
      { args, uris: resources.map((r) => r.uri), paths: [...paths.keys()] },
      paths,
      client,
    );
  }

  /** The learner whose session a body's (first) `tools/call` names, if the fixture knows it. */
  private ownerOf(body: string): string | undefined {
    const sid = /"learningSessionId"\s*:\s*"([^"]{1,200})"/.exec(body)?.[1];
    return sid ? this.fx.learnerOf.get(sid) : undefined;
  }

  /** A token of the fixture's development issuer, minted once per kind. */
  private async token(kind: string, learner: string, resource: string): Promise<string> {
    const key = `${kind}\n${learner}\n${resource}`;
    let token = this.tokens.get(key);
    if (token === undefined) {
      const now = Math.floor(Date.now() / 1000);
      token = await this.fx.token(learner, {
        audience: kind === "foreign" ? "https://elsewhere.example/mcp" : resource,
        ...(kind === "narrow" && { scopes: ["openid"] }),
        ...(kind === "expired" && { issuedAt: now - 7200, ttlSeconds: 60 }),
      });
      this.tokens.set(key, token);
    }
    return token;
  }

  /** The Authorization header values of `input` (none, one, or two). */
  private async authorization(input: IngressInput): Promise<string[]> {
    const resource =
      this.resources.get(input.path.replace(/[?].*$/, "")) ??
      this.fx.services.auth.settings.resource;
    const owner = this.ownerOf(input.body) ?? "fuzz-default-learner";
    switch (input.auth) {
      case "none":
        return [];
      case "garbage":
        return ["Bearer not-a-token"];
      case "basic":
        return ["Basic dXNlcjpwYXNz"];
      case "stranger":
        return [`Bearer ${await this.token("owner", "fuzz-stranger", resource)}`];
      case "double": {
        const token = await this.token("owner", owner, resource);
        return [`Bearer ${token}`, `Bearer ${token}`];
      }
      default:
        return [`Bearer ${await this.token(input.auth, owner, resource)}`];
    }
  }

  /** Send one request and read its answer. */
  async send(input: IngressInput): Promise<Answer> {
    const authorization = await this.authorization(input);
    const headers: Record<string, string | string[]> = { ...input.headers };
    if (authorization.length > 0)
      headers.authorization = authorization.length === 1 ? authorization[0] : authorization;
    return new Promise<Answer>((resolve) => {
      let req: http.ClientRequest;
      try {
        req = http.request({
          host: this.url.hostname,
          port: this.url.port,
          path: input.path,
          method: input.method,
          headers,
          agent: this.agent,
        });
      } catch (error) {
        resolve({ unsendable: String(error) });
        return;
      }
      const timer = setTimeout(() => {
        resolve({ noAnswer: `no answer within ${ANSWER_TIMEOUT_MS} ms` });
        req.destroy();
      }, ANSWER_TIMEOUT_MS);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on("error", () => undefined);
        res.on("close", () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      });
      req.on("error", (error) => {
        clearTimeout(timer);
        resolve({ reset: `the connection failed: ${error.message}` });
      });
      if (input.method !== "GET" && input.method !== "HEAD") req.end(input.body);
      else req.end();
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
    await this.client.close();
  }
}
