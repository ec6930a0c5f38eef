import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  generateKeyringConfig,
  mintCapability,
  keyringFromConfig,
} from "../../runtime/capability/index.js";
import { createServices } from "../../runtime/boot.js";
import { loadConfig } from "../../runtime/config/config.js";
import { logFingerprint } from "../../runtime/observability/session-fingerprint.js";
import { loadOrCreateSecrets, resolveSecrets, secretsFileName } from "../../runtime/secrets.js";
import { connectClient } from "./support/mcp-clients.js";
import { repoRoot, startFixture } from "./support/runtime-fixture.js";
import { testConfidentialProfile } from "./support/test-issuer.js";

const key = (c: string) => c.repeat(43);

describe("runtime keys from configuration (issue 4: keys from config; C11, L13)", () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "skillpilot-secrets-"))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const configFrom = (env: NodeJS.ProcessEnv, overrides = {}) =>
    loadConfig(repoRoot, { dataDir: path.join(dir, "data"), ...overrides }, env);

  it(
    "takes the keyring, log key and launch secret from the environment and then " +
      "writes no secrets file",
    async () => {
      const capabilityKeys = generateKeyringConfig("ops1");
      const env = {
        SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(capabilityKeys),
        SKILLPILOT_LOG_HMAC_KEY: key("a"),
        SKILLPILOT_LAUNCH_SECRET: key("b"),
      };
      const secrets = await resolveSecrets(await configFrom(env));
      assert.deepEqual(secrets, { capabilityKeys, logHmacKey: key("a"), launchSecret: key("b") });
      assert.deepEqual(await readdir(dir), [], "no data directory, no secrets.json");
    },
  );

  it(
    "DATABASE_URL without configured keys fails at start with a message naming " +
      "the settings, before any database connection",
    async () => {
      // An issuer is configured (production needs one), so the keys are what is missing.
      const auth = {
        issuer: "https://issuer.test",
        jwksUri: "https://issuer.test/jwks",
        clientProfiles: [testConfidentialProfile],
      };
      const config = await configFrom({ DATABASE_URL: "postgres://127.0.0.1:1/never" }, { auth });
      await assert.rejects(createServices(config), (error: Error) => {
        assert.match(error.message, /DATABASE_URL is set/);
        assert.match(error.message, /SKILLPILOT_LOG_HMAC_KEY/);
        assert.match(error.message, /SKILLPILOT_CAPABILITY_KEYS/);
        assert.doesNotMatch(
          error.message,
          /SKILLPILOT_LAUNCH_SECRET/,
          "loopback needs no launch secret",
        );
        return true;
      });
      const reachable = await configFrom(
        {
          DATABASE_URL: "postgres://127.0.0.1:1/never",
          SKILLPILOT_LOG_HMAC_KEY: key("c"),
          SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(generateKeyringConfig("k1")),
        },
        { host: "0.0.0.0" },
      );
      await assert.rejects(resolveSecrets(reachable), /missing: SKILLPILOT_LAUNCH_SECRET/);
      const complete = await configFrom({
        DATABASE_URL: "postgres://127.0.0.1:1/never",
        SKILLPILOT_LOG_HMAC_KEY: key("c"),
        SKILLPILOT_CAPABILITY_KEYS: JSON.stringify(generateKeyringConfig("k1")),
      });
      assert.equal((await resolveSecrets(complete)).logHmacKey, key("c"));
    },
  );

  it(
    "refuses malformed or weak configured keys, naming the setting but not the " + "value",
    async () => {
      await assert.rejects(
        configFrom({ SKILLPILOT_CAPABILITY_KEYS: "{not json" }),
        /SKILLPILOT_CAPABILITY_KEYS must be JSON/,
      );
      await assert.rejects(
        resolveSecrets(
          await configFrom({
            SKILLPILOT_CAPABILITY_KEYS: JSON.stringify({ activeKid: "k1", keys: { k1: "short" } }),
          }),
        ),
        /capabilityKeys \(SKILLPILOT_CAPABILITY_KEYS\): .*32 bytes/,
      );
      await assert.rejects(
        resolveSecrets(await configFrom({ SKILLPILOT_LAUNCH_SECRET: "hunter2" })),
        (error: Error) =>
          /SKILLPILOT_LAUNCH_SECRET/.test(error.message) && !error.message.includes("hunter2"),
      );
    },
  );

  it(
    "a server started with configured keys uses them: its log fingerprints and " +
      "capabilities follow the configured keys",
    async () => {
      const capabilityKeys = generateKeyringConfig("cfg1");
      const logHmacKey = key("d");
      const fx = await startFixture({ capabilityKeys, logHmacKey });
      try {
        const sid = await fx.newSession("configured-keys");
        const client = await connectClient(fx, "2026-07-28 (SDK v2)");
        try {
          // A grading capability minted offline with the configured keyring opens on the server
          // (CAPABILITY_STALE for its batch, not CAPABILITY_INVALID as a foreign key would give).
          const token = mintCapability(keyringFromConfig(capabilityKeys), {
            purpose: "grading",
            learningSessionId: sid,
            policyRevision: fx.services.line.policyRevision(),
            expiresAt: new Date(Date.now() + 60_000),
            batchId: "no-such-batch",
          });
          assert.match(token, /^cap1\.cfg1\./);
          const result = await client.callTool("record_skillpilot_verified_recall_results", {
            learningSessionId: sid,
            gradingCapability: token,
            assessments: [{ passed: true }],
          });
          assert.match(String(result.content[0].text), /^CAPABILITY_STALE:/);
        } finally {
          await client.close();
        }
        const lines = (await fx.stopAndReadLog())
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { sessionFingerprint?: string });
        assert.ok(lines.some((l) => l.sessionFingerprint === logFingerprint(logHmacKey, sid)));
      } finally {
        await fx.close();
      }
    },
  );
});

describe("secrets.json is written atomically (issue #15 item 10; C11, C15)", () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), "skillpilot-secrets-"))));
  afterEach(() => rm(dir, { recursive: true, force: true }));
  const file = () => path.join(dir, secretsFileName);

  it("creates a complete 0600 file and leaves no temp file behind", async () => {
    const secrets = await loadOrCreateSecrets(dir);
    assert.deepEqual(await readdir(dir), [secretsFileName]);
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(await readFile(file(), "utf8")), secrets);
    assert.deepEqual(await loadOrCreateSecrets(dir), secrets, "reused on the next start");
  });

  it("adds a launch secret to an older file by replacing it (a new inode), not in place", async () => {
    const old = { logHmacKey: key("e"), capabilityKeys: generateKeyringConfig("k1") };
    await writeFile(file(), JSON.stringify(old), { mode: 0o600 });
    const inode = (await stat(file())).ino;
    const upgraded = await loadOrCreateSecrets(dir);
    assert.equal(upgraded.logHmacKey, old.logHmacKey);
    assert.equal(typeof upgraded.launchSecret, "string");
    assert.notEqual((await stat(file())).ino, inode, "renamed into place");
    assert.deepEqual(JSON.parse(await readFile(file(), "utf8")), upgraded);
    assert.deepEqual(await readdir(dir), [secretsFileName]);
  });

  it("starts normally next to a partial temp file a crashed writer left", async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `.${secretsFileName}.4242.deadbeef.tmp`), '{"logHmacKey":"ab');
    const secrets = await loadOrCreateSecrets(dir);
    assert.deepEqual(await loadOrCreateSecrets(dir), secrets);
  });

  it("lets exactly one of two processes starting at once create the file; both use it", async () => {
    const [a, b] = await Promise.all([loadOrCreateSecrets(dir), loadOrCreateSecrets(dir)]);
    assert.deepEqual(a, b);
    assert.deepEqual(await readdir(dir), [secretsFileName]);
  });

  it("names the way out when an older version left a cut-short file", async () => {
    await writeFile(file(), '{"logHmacKey":"', { mode: 0o600 });
    await assert.rejects(
      loadOrCreateSecrets(dir),
      /not valid JSON .*delete it to generate new keys/,
    );
  });
});
