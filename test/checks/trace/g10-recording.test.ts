import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { logFingerprint } from "../../../runtime/observability/session-fingerprint.js";
import { clientEras } from "../../runtime/support/mcp-clients.js";
import { startFixture } from "../../runtime/support/runtime-fixture.js";
import { runCli } from "../../support/run-cli.js";
import { recordFixture, sdkHost } from "./support/recorded-host.js";
import { wellBehavedConversation } from "./support/scripted-host.js";

describe("trace record: the official SDK clients through the recording proxy (G10, C15)", () => {
  for (const era of clientEras)
    it(`records a coach conversation that trace check passes, redacted; ${era}`, async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-g10-"));
      const fx = await startFixture({ sessionTtlSeconds: 90 * 86400 });
      const out = path.join(dir, "trace.jsonl");
      const recording = await recordFixture(fx, out, `g10-${era}`);
      try {
        const host = await sdkHost(fx, recording, era);
        await wellBehavedConversation(host, recording.env);
        await host.close();
        await recording.close();
        const run = await runCli(["trace", "check", out]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.match(run.stdout, /^0 error\(s\), 0 warning\(s\)$/m);
        assert.match(run.stdout, / 7 turn\(s\), jsonl/);
        const text = await readFile(out, "utf8");
        // Redacted: no session id, no token, no prose; the session as its log fingerprint.
        assert.ok(!text.includes(recording.env.sid), "session id in the trace");
        assert.doesNotMatch(text, /eyJ[\w-]+\.[\w-]+\./, "a bearer token in the trace");
        const fingerprint = logFingerprint(fx.services.logHmacKey, recording.env.sid);
        assert.ok(text.includes(`redacted:session:${fingerprint}`));
        for (const line of text.trim().split("\n")) {
          const event = JSON.parse(line) as {
            message?: { result?: { structuredContent?: unknown } };
          };
          const content = JSON.stringify(event.message?.result?.structuredContent ?? {});
          assert.doesNotMatch(
            content,
            /"[^"]*\w \w[^"]*"/,
            `prose left in ${content.slice(0, 200)}`,
          );
        }
        assert.match(text, /STATE_CONFLICT: redacted:prose:/);
        assert.match(text, /"name":"render_skillpilot_goal_visualization"/);
      } finally {
        await recording.close().catch(() => undefined);
        await fx.close();
        await rm(dir, { recursive: true, force: true });
      }
    });
});
