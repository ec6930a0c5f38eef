import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { contractScopes } from "../../generated/tools.gen.js";
import { benchTokens, tokenBook } from "./bench-tokens.js";
import { activeLearners, contextCalls } from "./coach-learners.js";
import type { Scenario } from "./interleave.js";
import type { Result } from "./load-driver.js";
import type { Ratio } from "./ratio-summary.js";
import { RawMcpCaller } from "./raw-mcp-client.js";
import { BENCH_PUBLIC_ENV, BENCH_PUBLIC_URL } from "./recall-round.js";
import { startProcess, stopProcess } from "./server-process.js";

/**
 * The Gemini column of `bench:runtime` (issue #31): the context read on the Gemini lane, whose
 * opaque access tokens the server verifies by token introspection (RFC 7662) against a loopback
 * endpoint, beside the same read on the Claude lane of the same server, whose tokens are JWTs.
 * After the first call of each token the introspection answer is remembered (a cache hit), so
 * context@gemini − context@claude is what an introspected call costs over a JWT call: at most
 * 0.1 of a peer echo call. The endpoint's answer count shows a miss is one round trip per token.
 */
export async function geminiColumn(root: string, dir: string, clients: number) {
  const geminiUrl = `${BENCH_PUBLIC_URL}/gemini/mcp`;
  const claudeUrl = `${BENCH_PUBLIC_URL}/claude/mcp`;
  const subjects = new Map<string, string>();
  let introspected = 0;
  const endpoint = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      introspected++;
      const token = new URLSearchParams(body).get("token") ?? "";
      const sub = subjects.get(token);
      const answer = sub
        ? {
            active: true,
            sub,
            aud: geminiUrl,
            scope: contractScopes.join(" "),
            client_id: "gemini-enterprise",
            exp: Math.floor(Date.now() / 1000) + 6 * 3600,
          }
        : { active: false };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", () => resolve()));
  const data = path.join(dir, "gemini");
  const configFile = path.join(dir, "gemini.config.json");
  await writeFile(
    configFile,
    JSON.stringify({
      auth: {
        introspection: {
          endpoint: `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/introspect`,
          clientId: "skillpilot-bench",
          clientSecret: "bench-only",
          lanes: ["gemini"],
        },
      },
    }),
  );
  const server = await startProcess(
    root,
    [
      path.join(root, "bin/skillpilot.js"),
      "start",
      "--port",
      "0",
      "--data-dir",
      data,
      "--config",
      configFile,
    ],
    { SKILLPILOT_LOG: path.join(data, "calls.log"), ...BENCH_PUBLIC_ENV },
  );
  // Opaque tokens as Google mints them: random, no structure the server could read.
  const geminiTokens = tokenBook(async (learner) => {
    const token = `ya29.${randomBytes(48).toString("base64url")}`;
    subjects.set(token, learner);
    return token;
  });
  const claudeTokens = await benchTokens(data, claudeUrl);
  const origin = new URL(server.url).origin;
  const gemini = new RawMcpCaller(
    server.url.replace(/\/mcp$/, "/gemini/mcp"),
    clients,
    geminiTokens.tokenFor,
  );
  const claude = new RawMcpCaller(
    server.url.replace(/\/mcp$/, "/claude/mcp"),
    clients,
    claudeTokens.tokenFor,
  );
  const named = (prefix: string) => Array.from({ length: clients }, (_, n) => `${prefix}-${n}`);
  const geminiLearners = await activeLearners(
    origin,
    gemini,
    named("bench-gemini"),
    geminiTokens.bind,
    "gemini",
  );
  const claudeLearners = await activeLearners(
    origin,
    claude,
    named("bench-gemini-claude"),
    claudeTokens.bind,
    "claude",
  );
  const scenarios: Scenario[] = [
    {
      name: "context@gemini",
      calls: contextCalls([gemini], geminiLearners),
      pids: [server.child.pid],
      group: "gemini",
    },
    {
      name: "context@jwt",
      calls: contextCalls([claude], claudeLearners),
      pids: [server.child.pid],
      group: "gemini",
    },
  ];
  return {
    scenarios,
    /** Its ratio in one run, against the same run's peer echo. */
    ratios(results: Map<string, Result>): Ratio[] {
      const cpu = (name: string) => results.get(name)?.serverCpuMs ?? Number.NaN;
      return [
        {
          label: "introspected (cache hit): (context@gemini - context@jwt) server CPU / peer call",
          value: (cpu("context@gemini") - cpu("context@jwt")) / cpu("peer"),
          target: 0.1,
        },
      ];
    },
    /** What the column adds below the ratios. */
    note(): string {
      return (
        `gemini: ${introspected} introspection requests for ${subjects.size} opaque tokens ` +
        "(a miss is one round trip; every later call of a token is a cache hit)"
      );
    },
    async close() {
      gemini.close();
      claude.close();
      await stopProcess(server.child);
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    },
  };
}
