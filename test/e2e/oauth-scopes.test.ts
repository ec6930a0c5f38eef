import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { toolNames } from "../../generated/handlers.gen.js";
import { toolScopes } from "../../generated/tools.gen.js";
import { connectClient, eras, errorCode, type ToolResult } from "../runtime/support/mcp-clients.js";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

/** Every row a call could change, for zero-mutation checks. */
async function snapshot(fx: RuntimeFixture) {
  const tables = ["learner_state", "progress", "receipts", "idempotency_records", "sessions"];
  return Object.fromEntries(
    await Promise.all(tables.map(async (t) => [t, await fx.db(t).select()] as const)),
  );
}

const challengeOf = (r: ToolResult) =>
  ((r._meta as Record<string, string[]> | undefined)?.["mcp/www_authenticate"] ?? [])[0];

for (const era of eras) {
  describe(`OAuth per-tool scopes and session ownership, ${era} (issue #12; L14, G5, C14)`, function () {
    this.timeout(60_000);
    let fx: RuntimeFixture;
    before(async () => {
      fx = await startFixture();
    });
    after(() => fx?.close());

    it("each tool refuses a token without its scope with INSUFFICIENT_SCOPE, changing nothing", async () => {
      const sid = await fx.newSession("ann");
      const before = await snapshot(fx);
      for (const tool of toolNames) {
        const needed = toolScopes[tool];
        const granted = fx.services.auth.settings.scopesSupported.filter(
          (s) => !needed.includes(s),
        );
        const token = await fx.token("ann", { scopes: granted });
        const client = await connectClient(fx, era, { authorize: async () => token });
        try {
          const r = await client.callTool(tool, {
            learningSessionId: sid,
            expectedStateVersion: 1,
            clientRequestId: randomUUID(),
          });
          assert.equal(errorCode(r), "INSUFFICIENT_SCOPE", tool);
          const challenge = challengeOf(r);
          assert.match(
            challenge,
            /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/,
          );
          assert.match(challenge, /error="insufficient_scope"/);
          for (const s of needed)
            assert.match(challenge, new RegExp(`scope="[^"]*\\b${s}\\b`), tool);
        } finally {
          await client.close();
        }
      }
      assert.deepEqual(await snapshot(fx), before, "no refused call changed anything");
    });

    it("the right scope passes the scope check (a read with coach.read only)", async () => {
      const sid = await fx.newSession("ann");
      const token = await fx.token("ann", { scopes: ["coach.read"] });
      const client = await connectClient(fx, era, { authorize: async () => token });
      try {
        const r = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.equal(r.isError, undefined);
      } finally {
        await client.close();
      }
    });

    it("another learner's token cannot use a session: SESSION_SUBJECT_MISMATCH, nothing changed", async () => {
      const sid = await fx.newSession("ann");
      const ctx = await (async () => {
        const own = await connectClient(fx, era);
        try {
          return (await own.callTool("get_skillpilot_learning_context", { learningSessionId: sid }))
            .structuredContent as { stateVersion: number; options: { payload: string }[] };
        } finally {
          await own.close();
        }
      })();
      const before = await snapshot(fx);
      const bob = await fx.token("bob");
      const client = await connectClient(fx, era, { authorize: async () => bob });
      try {
        const read = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.equal(errorCode(read), "SESSION_SUBJECT_MISMATCH");
        assert.match(
          read.content[0].text ?? "",
          /start their own session at http:\/\/127\.0\.0\.1:\d+\/start/,
        );
        const write = await client.callTool("choose_skillpilot_option", {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          option: ctx.options[0].payload,
        });
        assert.equal(errorCode(write), "SESSION_SUBJECT_MISMATCH");
      } finally {
        await client.close();
      }
      assert.deepEqual(await snapshot(fx), before);
    });

    it("a refusal is in the session's language (de) for its owner only (C3, L14)", async () => {
      const sid = await fx.newSession("ann", "de");
      const bob = await fx.token("bob");
      const client = await connectClient(fx, era, { authorize: async () => bob });
      const anonymous = await connectClient(fx, era, { authorize: false });
      try {
        // Another learner, or nobody, learns nothing of the session: not even its language.
        const r = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.match(r.content[0].text ?? "", /^SESSION_SUBJECT_MISMATCH: This learning session/);
        const invalid = await client.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
          extra: 1,
        });
        assert.match(invalid.content[0].text ?? "", /^INVALID_INPUT: The tool arguments/);
        const unsigned = await anonymous.callTool("get_skillpilot_learning_context", {
          learningSessionId: sid,
        });
        assert.match(unsigned.content[0].text ?? "", /^AUTHENTICATION_REQUIRED: The learner/);
        const scoped = await fx.token("ann", { scopes: ["coach.read"] });
        const limited = await connectClient(fx, era, { authorize: async () => scoped });
        try {
          const w = await limited.callTool("complete_skillpilot_goal", {
            learningSessionId: sid,
            expectedStateVersion: 1,
            clientRequestId: randomUUID(),
            decision: "achieved",
          });
          assert.match(w.content[0].text ?? "", /^INSUFFICIENT_SCOPE: Die Anmeldung erlaubt/);
        } finally {
          await limited.close();
        }
      } finally {
        await client.close();
        await anonymous.close();
      }
    });
  });
}
