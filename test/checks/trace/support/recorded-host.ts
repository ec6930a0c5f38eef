import path from "node:path";
import {
  LEARNER_MESSAGE_PATH,
  type RecordingProxy,
  startRecordingProxy,
} from "../../../../checks/trace/record/recording-proxy.js";
import { type CoachClient, connectClient, type Era } from "../../../runtime/support/mcp-clients.js";
import { repoRoot, type RuntimeFixture } from "../../../runtime/support/runtime-fixture.js";
import type { Host, Surroundings } from "./scripted-host.js";

const DAY_MS = 86_400_000;

/** A fixture server recorded through `trace record`'s proxy, with what a conversation needs. */
export interface Recording {
  proxy: RecordingProxy;
  env: Surroundings;
  /** Mark a new learner message in the trace. */
  learnerMessage(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Put a recording proxy in front of `fx` (its session fingerprints under the server's own log key,
 * so they match the call log) and launch a session; `elsewhere` writes past the proxy.
 */
export async function recordFixture(
  fx: RuntimeFixture,
  out: string,
  learner: string,
): Promise<Recording> {
  let offsetMs = 0;
  fx.services.now = () => new Date(Date.now() + offsetMs);
  const proxy = await startRecordingProxy({
    upstream: fx.mcpUrl,
    port: 0,
    out,
    contract: path.join(repoRoot, "generated/contract.snapshot.json"),
    fingerprintKey: fx.services.logHmacKey,
  });
  const sid = await fx.newSession(learner);
  let direct: CoachClient | undefined;
  return {
    proxy,
    learnerMessage: async () => {
      const res = await fetch(`${proxy.origin}${LEARNER_MESSAGE_PATH}`, { method: "POST" });
      await res.arrayBuffer();
    },
    env: {
      sid,
      advanceDays: (days) => {
        offsetMs += days * DAY_MS;
      },
      elsewhere: async (name, args) => {
        direct ??= await connectClient(fx, "2026-07-28 (SDK v2)");
        return direct.callTool(name, args);
      },
    },
    close: async () => {
      await direct?.close();
      await proxy.close();
    },
  };
}

/** An official SDK client of `era` connected through the recording proxy, as a host. */
export async function sdkHost(
  fx: RuntimeFixture,
  recording: Recording,
  era: Era,
): Promise<Host & { close(): Promise<void> }> {
  const client = await connectClient(
    { mcpUrl: recording.proxy.url, ...(fx.authorize && { authorize: fx.authorize }) },
    era,
  );
  return {
    call: (name, args) => client.callTool(name, args),
    learnerMessage: recording.learnerMessage,
    close: () => client.close(),
  };
}
