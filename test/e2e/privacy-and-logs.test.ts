import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { logFingerprint } from "../../runtime/observability/session-fingerprint.js";
import { connectClient, errorCode, eras, rpcErrorCode } from "../runtime/support/mcp-clients.js";
import { startFixture } from "../runtime/support/runtime-fixture.js";
import type { WireObject } from "../support/wire.js";

const CANARY = "CANARY-7f3a9c-learner-wrote-this";

async function readIfExists(file: string): Promise<Buffer> {
  return readFile(file).catch(() => Buffer.alloc(0));
}

describe("privacy of storage and logs", () => {
  it(
    "keeps a canary sent in an unknown field out of the database file and the " +
      "logs, in both eras (C5, G11)",
    async () => {
      const fx = await startFixture();
      try {
        const sid = await fx.newSession("canary-learner");
        for (const era of eras) {
          const client = await connectClient(fx, era);
          try {
            const ctx = (
              await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid })
            ).structuredContent as WireObject;
            const attempts: [string, Record<string, unknown>][] = [
              ["get_skillpilot_learning_context", { learningSessionId: sid, note: CANARY }],
              [
                "choose_skillpilot_option",
                {
                  learningSessionId: sid,
                  expectedStateVersion: ctx.stateVersion,
                  clientRequestId: randomUUID(),
                  option: ctx.options[0].payload,
                  why: CANARY,
                },
              ],
              [
                "complete_skillpilot_goal",
                {
                  learningSessionId: sid,
                  expectedStateVersion: ctx.stateVersion,
                  clientRequestId: randomUUID(),
                  decision: "achieved",
                  feedback: { text: CANARY },
                },
              ],
              [
                "complete_skillpilot_goal",
                {
                  learningSessionId: sid,
                  expectedStateVersion: ctx.stateVersion,
                  clientRequestId: CANARY,
                  decision: "achieved",
                },
              ],
            ];
            for (const [tool, args] of attempts) {
              const result = await client.callTool(tool, args);
              assert.equal(
                errorCode(result),
                "INVALID_INPUT",
                `${tool}: ${JSON.stringify(result)}`,
              );
            }
            // A canary as the tool name is a protocol error (JSON-RPC -32602), logged as unknown.
            await assert.rejects(
              client.callTool(CANARY, { learningSessionId: sid }),
              (e: unknown) => rpcErrorCode(e) === -32602,
            );
          } finally {
            await client.close();
          }
        }
        const log = await fx.stopAndReadLog();
        assert.ok(log.length > 0);
        assert.ok(!log.includes(CANARY), "canary in the log");
        const bytes = Buffer.concat([
          await readIfExists(fx.dbFile),
          await readIfExists(`${fx.dbFile}-wal`),
        ]);
        assert.ok(bytes.length > 0);
        assert.equal(bytes.indexOf(CANARY), -1, "canary in the database");
      } finally {
        await fx.close();
      }
    },
  );

  it(
    "logs one L13 line per call with the session only as a truncated HMAC, " +
      "never in plaintext (L13)",
    async () => {
      const fx = await startFixture();
      try {
        const sessions: string[] = [];
        let calls = 0;
        for (const era of eras) {
          const client = await connectClient(fx, era);
          try {
            for (const sid of [
              await fx.newSession(`log-a-${era}`),
              await fx.newSession(`log-b-${era}`, "de"),
            ]) {
              sessions.push(sid);
              const ctx = (
                await client.callTool("get_skillpilot_learning_context", { learningSessionId: sid })
              ).structuredContent as WireObject;
              await client.callTool("choose_skillpilot_option", {
                learningSessionId: sid,
                expectedStateVersion: ctx.stateVersion,
                clientRequestId: randomUUID(),
                option: ctx.options[0].payload,
              });
              await client.callTool("complete_skillpilot_goal", {
                learningSessionId: sid,
                expectedStateVersion: 0,
                clientRequestId: randomUUID(),
                decision: "achieved",
              });
              calls += 3;
            }
          } finally {
            await client.close();
          }
        }
        const lines = (await fx.stopAndReadLog())
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        const callLines = lines.filter((l) => l.msg === "tool call");
        assert.equal(callLines.length, calls);
        const text = lines.map((l) => JSON.stringify(l)).join("\n");
        for (const sid of sessions) {
          assert.ok(!text.includes(sid), "plaintext session id in the log");
          assert.ok(!text.includes(sid.slice(4)), "session id body in the log");
        }
        const expectedFingerprints = new Set(
          sessions.map((sid) => logFingerprint(fx.services.logHmacKey, sid)),
        );
        for (const line of callLines) {
          for (const field of [
            "contractMajor",
            "pluginLine",
            "serverBuild",
            "toolName",
            "status",
            "resultCode",
            "latencyMs",
          ])
            assert.ok(field in line, `${field} missing`);
          assert.match(String(line.sessionFingerprint), /^[0-9a-f]{16}$/);
          assert.ok(expectedFingerprints.has(String(line.sessionFingerprint)));
          if (line.toolName !== "get_skillpilot_learning_context")
            assert.match(String(line.clientRequestId), /^[0-9a-f-]{36}$/);
        }
        assert.ok(callLines.some((l) => l.resultCode === "STATE_CONFLICT" && l.status === "error"));
        assert.ok(
          callLines.every(
            (l) =>
              typeof l.workflowVersion === "string" &&
              typeof l.curriculumRevision === "string" &&
              typeof l.stateVersion === "number",
          ),
        );
      } finally {
        await fx.close();
      }
    },
  );
});
