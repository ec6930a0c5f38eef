import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../../../runtime/config/config.js";
import { StartupError } from "../../../runtime/config/startup-error.js";
import { repoRoot } from "../../support/temp-project.js";

/** The StartupError message `loadConfig` refuses `env` with. */
async function refusal(env: NodeJS.ProcessEnv): Promise<string> {
  try {
    await loadConfig(repoRoot, {}, env);
  } catch (error) {
    assert.ok(error instanceof StartupError, String(error));
    assert.equal(error.code, "CONFIG_INVALID");
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
}

describe("configuration from the environment (issue #11: friendly errors)", () => {
  it("checks every variable against the config file's schema and names the variable", async () => {
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [{ LOG_LEVEL: "loud" }, /^LOG_LEVEL must be one of "fatal", .*"silent" \(got "loud"\)$/],
      [{ DATABASE_URL: "notaurl" }, /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/],
      [{ DATABASE_URL: "mysql://db/x" }, /^DATABASE_URL must be a postgres:\/\//],
      [{ SKILLPILOT_LAUNCH_URL: "ftp://x" }, /^SKILLPILOT_LAUNCH_URL must be an http\(s\) URL/],
      [{ SKILLPILOT_PUBLIC_URL: "coach.example" }, /^SKILLPILOT_PUBLIC_URL must be an http/],
      [{ SKILLPILOT_SERVER_BUILD: "x".repeat(101) }, /^SKILLPILOT_SERVER_BUILD must NOT have/],
      [{ SKILLPILOT_OAUTH_ISSUER: "issuer" }, /^SKILLPILOT_OAUTH_ISSUER must be an http\(s\) URL/],
      [{ SKILLPILOT_OAUTH_JWKS_URI: "jwks" }, /^SKILLPILOT_OAUTH_JWKS_URI must be an http\(s\)/],
      [{ SKILLPILOT_OPENAI_APPS_CHALLENGE: "x".repeat(501) }, /^SKILLPILOT_OPENAI_APPS_CHALLENGE/],
      [{ SKILLPILOT_CAPABILITY_KEYS: '{"activeKid":"k1"}' }, /^SKILLPILOT_CAPABILITY_KEYS must/],
    ];
    for (const [env, expected] of cases) assert.match(await refusal(env), expected);
  });

  it("names every bad variable in one line and never quotes a key", async () => {
    const message = await refusal({
      LOG_LEVEL: "loud",
      DATABASE_URL: "notaurl",
      SKILLPILOT_CAPABILITY_KEYS: '{"activeKid":"k1","keys":{"k1":12345678}}',
    });
    assert.doesNotMatch(message, /\n/);
    assert.match(message, /LOG_LEVEL/);
    assert.match(message, /DATABASE_URL/);
    assert.match(message, /SKILLPILOT_CAPABILITY_KEYS \/keys\/k1 must be string$/);
    assert.doesNotMatch(message, /12345678/);
  });

  it("reads each provider lane's public MCP URL from SKILLPILOT_<LANE>_MCP_URL, Gemini's included", async () => {
    const config = await loadConfig(
      repoRoot,
      {},
      {
        SKILLPILOT_CLAUDE_MCP_URL: "https://mcp-claude.skillpilot.com/mcp",
        SKILLPILOT_GEMINI_MCP_URL: "https://mcp-gemini.skillpilot.com/mcp",
        SKILLPILOT_STANDARD_MCP_URL: "https://mcp.skillpilot.com/mcp",
      },
    );
    assert.deepEqual(config.lanePublicUrls, {
      claude: "https://mcp-claude.skillpilot.com/mcp",
      gemini: "https://mcp-gemini.skillpilot.com/mcp",
      mcp: "https://mcp.skillpilot.com/mcp",
    });
  });

  it("only a postgres:// or postgresql:// DATABASE_URL selects PostgreSQL", async () => {
    for (const url of ["postgres://db.example/coach", "postgresql://u@db.example:5432/coach"])
      assert.equal((await loadConfig(repoRoot, {}, { DATABASE_URL: url })).databaseUrl, url);
    assert.equal((await loadConfig(repoRoot, {}, {})).databaseUrl, undefined);
  });

  it("a relative log file resolves against the project root, like every other path", async () => {
    const config = await loadConfig(repoRoot, {}, { SKILLPILOT_LOG: "logs/calls.log" });
    assert.equal(config.logDestination, path.join(repoRoot, "logs/calls.log"));
    assert.equal(
      (await withStdoutTty(false, () => loadConfig(repoRoot, {}, {}))).logDestination,
      "stdout",
    );
    const elsewhere = await loadConfig("/srv/coach", {}, { SKILLPILOT_LOG: "/var/log/c.log" });
    assert.equal(elsewhere.logDestination, "/var/log/c.log");
  });
});

/** Run `body` with `process.stdout.isTTY` set as given, restoring it afterwards. */
async function withStdoutTty<T>(tty: boolean, body: () => Promise<T>): Promise<T> {
  const saved = Object.getOwnPropertyDescriptor(process.stdout, "isTTY");
  Object.defineProperty(process.stdout, "isTTY", { value: tty, configurable: true });
  try {
    return await body();
  } finally {
    if (saved) Object.defineProperty(process.stdout, "isTTY", saved);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  }
}

describe("the log's default destination keeps the start banner readable on a terminal", () => {
  it("is stderr when stdout is a terminal, stdout otherwise; a setting always wins", async () => {
    const on = (tty: boolean, env: NodeJS.ProcessEnv = {}) =>
      withStdoutTty(tty, () => loadConfig(repoRoot, {}, env)).then((c) => c.logDestination);
    assert.equal(await on(true), "stderr");
    assert.equal(await on(false), "stdout");
    assert.equal(await on(true, { SKILLPILOT_LOG: "stdout" }), "stdout");
    assert.equal(await on(false, { SKILLPILOT_LOG: "stderr" }), "stderr");
    assert.equal(await on(true, { SKILLPILOT_LOG: "/var/log/c.log" }), "/var/log/c.log");
  });
});

describe("configuration of traces and OpenTelemetry (issue #22: off by default; G10, L13)", () => {
  it("is off by default and set by config keys or their environment variables", async () => {
    const none = await loadConfig(repoRoot, {}, {});
    assert.equal(none.traceFile, undefined);
    assert.equal(none.openTelemetry, undefined);
    const env = await loadConfig(
      repoRoot,
      {},
      {
        SKILLPILOT_TRACE_FILE: "traces/self.jsonl",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces",
      },
    );
    assert.equal(env.traceFile, path.join(repoRoot, "traces/self.jsonl"));
    assert.deepEqual(env.openTelemetry, {
      tracesEndpoint: "http://127.0.0.1:4318/v1/traces",
      protocol: "http/protobuf",
    });
    assert.match(
      await refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "collector:4318" }),
      /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must /,
    );
  });

  it("encodes spans as binary Protobuf unless the OTLP protocol variables (traces first) say JSON", async () => {
    const endpoint = { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" };
    const protocol = async (env: Record<string, string>) =>
      (await loadConfig(repoRoot, {}, { ...endpoint, ...env })).openTelemetry?.protocol;
    assert.equal(await protocol({}), "http/protobuf");
    assert.equal(await protocol({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }), "http/json");
    assert.equal(
      await protocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      }),
      "http/protobuf",
    );
    assert.match(
      await refusal({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
      /^OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json .*got "grpc"/,
    );
    assert.match(
      await refusal({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/xml" }),
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be /,
    );
    // A deployment-wide gRPC setting for other services does not stop a server that exports nothing.
    const off = await loadConfig(repoRoot, {}, { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    assert.equal(off.openTelemetry, undefined);
  });

  it("takes the protocol from the config file, the environment overriding it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-otlp-config-"));
    try {
      const file = path.join(dir, "config.json");
      await writeFile(
        file,
        JSON.stringify({
          openTelemetry: {
            tracesEndpoint: "http://127.0.0.1:4318/v1/traces",
            protocol: "http/json",
          },
        }),
      );
      const fromFile = await loadConfig(repoRoot, { configFile: file }, {});
      assert.equal(fromFile.openTelemetry?.protocol, "http/json");
      const overridden = await loadConfig(
        repoRoot,
        { configFile: file },
        { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" },
      );
      assert.equal(overridden.openTelemetry?.protocol, "http/protobuf");
      await writeFile(
        file,
        JSON.stringify({
          openTelemetry: { tracesEndpoint: "http://127.0.0.1:4318/v1/traces", protocol: "grpc" },
        }),
      );
      await assert.rejects(loadConfig(repoRoot, { configFile: file }, {}), /protocol/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
