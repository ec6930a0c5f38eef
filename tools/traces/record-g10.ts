// `npm run traces:g10`: re-record the G10 evidence under test/fixtures/traces/ (issue #22 item 5).
//
// Each host holds the same well-behaved coach conversation (test/checks/trace/support/
// scripted-host.ts: full coach turns, a Verified Recall round and its continuation, a conflict)
// with a fixture server on this Node, through `trace record`'s proxy, which writes the redacted
// trace: the official SDK v2 client (2026-07-28), the SDK v1 client (2025), and the MCP
// Inspector CLI in both protocol eras (Node 22 from tools/conformance: run `npm run conformance`
// once to install it). test/checks/trace/g10-traces.test.ts checks the committed traces in CI.
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Era } from "../../test/runtime/support/mcp-clients.js";
import { startFixture } from "../../test/runtime/support/runtime-fixture.js";
import { recordFixture, sdkHost } from "../../test/checks/trace/support/recorded-host.js";
import {
  type Host,
  wellBehavedConversation,
} from "../../test/checks/trace/support/scripted-host.js";
import { inspectorCall } from "./inspector-host.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(root, "test/fixtures/traces");

const hosts: { file: string; sdk?: Era; inspector?: "modern" | "legacy" }[] = [
  { file: "g10-sdk-v2-2026-07-28.jsonl", sdk: "2026-07-28 (SDK v2)" },
  { file: "g10-sdk-v1-2025.jsonl", sdk: "2025 stateless (SDK v1)" },
  { file: "g10-inspector-modern.jsonl", inspector: "modern" },
  { file: "g10-inspector-legacy.jsonl", inspector: "legacy" },
];

for (const spec of hosts) {
  const out = path.join(fixtures, spec.file);
  await rm(out, { force: true });
  const fx = await startFixture({ sessionTtlSeconds: 90 * 86400 });
  const learner = `g10-${spec.file.replace(/\.jsonl$/, "")}`;
  const recording = await recordFixture(fx, out, learner);
  try {
    let host: Host & { close?(): Promise<void> };
    if (spec.sdk) host = await sdkHost(fx, recording, spec.sdk);
    else {
      const token = await fx.token(learner);
      const era = spec.inspector ?? "modern";
      host = {
        call: (name, args) => inspectorCall(recording.proxy.url, era, token, name, args),
        learnerMessage: recording.learnerMessage,
      };
    }
    await wellBehavedConversation(host, recording.env);
    await host.close?.();
  } finally {
    await recording.close();
    await fx.close();
  }
  // Counted once the recording is closed (its recorder thread has written everything).
  process.stdout.write(`recorded ${spec.file}: ${recording.proxy.events()} events\n`);
}
