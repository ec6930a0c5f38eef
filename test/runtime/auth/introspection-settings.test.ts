import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  introspectionSecret,
  resolveIntrospection,
} from "../../../runtime/auth/introspection-settings.js";
import type { IntrospectionConfig } from "../../../runtime/config/config.js";

const declared = ["openai", "claude", "mcp", "gemini"];
const invalid = (message: string) => new Error(message);
const base: IntrospectionConfig = {
  endpoint: "https://login.example.com/introspect",
  clientId: "rs",
  clientSecret: "s3cret-value",
  lanes: ["gemini"],
};
const resolve = (config: IntrospectionConfig, exposed?: string) =>
  resolveIntrospection(config, { exposed, declared }, invalid);

describe("auth.introspection settings", () => {
  it("resolves with its defaults; unset is no introspection", () => {
    assert.equal(
      resolveIntrospection(undefined, { exposed: undefined, declared }, invalid),
      undefined,
    );
    const settings = resolve(base);
    assert.deepEqual(settings?.lanes, ["gemini"]);
    assert.deepEqual(settings?.acceptedClientIds, []);
    assert.equal(settings?.cacheMaxSeconds, 60);
    assert.equal(settings?.cacheMaxEntries, 10_000);
    assert.equal(settings?.timeoutMs, 5000);
  });

  it("refuses two secrets or none, an undeclared lane, the openai lane, and plain http when exposed; never quoting the secret", () => {
    for (const [config, exposed, problem] of [
      [{ ...base, clientSecretFile: "/run/s" }, undefined, /exactly one of clientSecret/],
      [{ ...base, clientSecret: undefined }, undefined, /exactly one of clientSecret/],
      [{ ...base, lanes: ["copilot"] }, undefined, /names lane "copilot"/],
      [{ ...base, lanes: ["openai"] }, undefined, /cannot serve the openai lane/],
      [{ ...base, endpoint: "http://login.example.com/i" }, "the server binds 0.0.0.0", /https/],
    ] as const)
      assert.throws(
        () => resolve(config as IntrospectionConfig, exposed),
        (e: Error) => problem.test(e.message) && !e.message.includes("s3cret-value"),
      );
    assert.ok(resolve({ ...base, endpoint: "http://127.0.0.1:9/i" }), "plain http on loopback");
  });

  it("reads the secret from its file, without the line end", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-introspection-"));
    try {
      const file = path.join(dir, "secret");
      await writeFile(file, "from-a-file\n");
      const settings = resolve({ ...base, clientSecret: undefined, clientSecretFile: file });
      assert.equal(await introspectionSecret(settings!), "from-a-file");
      assert.equal(await introspectionSecret(resolve(base)!), "s3cret-value");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
