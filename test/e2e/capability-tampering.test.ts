import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mintCapability } from "../../runtime/capability/index.js";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { connectClient, errorCode, eras, type ToolResult } from "../runtime/support/mcp-clients.js";
import { useServedClient } from "../runtime/support/runtime-fixture.js";

/**
 * Single-bit flips sent over MCP per era (the module tests flip every bit of a token offline too).
 */
const FLIPS = 2000;
const PARALLEL = 16;

/**
 * Flip bit `bit` of the sealed bytes of `cap1.<kid>.<sealed>`; the result is canonical base64url
 * again.
 */
function flipSealedBit(token: string, bit: number): string {
  const [prefix, kid, sealed] = token.split(".");
  const bytes = Buffer.from(sealed, "base64url");
  bytes[bit >> 3] ^= 1 << (bit & 7);
  return `${prefix}.${kid}.${bytes.toString("base64url")}`;
}

/** Flip bit `bit` (0–6) of character `index` of the token text. */
function flipTextBit(token: string, index: number, bit: number): string {
  return (
    token.slice(0, index) +
    String.fromCharCode(token.charCodeAt(index) ^ (1 << bit)) +
    token.slice(index + 1)
  );
}

/**
 * `count` distinct single-bit flips: every bit of the sealed bytes first, then bits of the text
 * (a text flip that equals a sealed-byte flip is counted once).
 */
function flips(token: string, count: number): string[] {
  const out = new Set<string>();
  const sealedBits = Buffer.from(token.split(".")[2], "base64url").length * 8;
  for (let bit = 0; bit < sealedBits && out.size < count; bit++) out.add(flipSealedBit(token, bit));
  for (let bit = 0; bit < 7 && out.size < count; bit++)
    for (let i = 0; i < token.length && out.size < count; i++) out.add(flipTextBit(token, i, bit));
  assert.equal(out.size, count, "the token has enough distinct single-bit flips");
  return [...out];
}

async function inChunks<T, R>(
  items: T[],
  size: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

for (const era of eras) {
  describe(`capability tampering over MCP, ${era}`, () => {
    const served = useServedClient(era, { sessionTtlSeconds: 90 * 86400 });
    let d: CoachDriver;
    before(() => {
      d = new CoachDriver(served.client, served.fx);
    });

    /** A session with an open two-item batch and its capabilities. */
    const openBatch = async (learner: string) => {
      const { sid, ctx } = await d.sessionWithMastered(learner, 2);
      d.advanceDays(2);
      await d.master(ctx);
      const started = await d.ok("start_skillpilot_verified_recall", { learningSessionId: sid });
      const revealed = await d.ok("get_skillpilot_verified_recall_answers", {
        learningSessionId: sid,
        batchCapability: started.batchCapability,
      });
      return {
        sid,
        batchCapability: started.batchCapability as string,
        gradingCapability: revealed.gradingCapability as string,
      };
    };
    const record = (sid: string, gradingCapability: string): Promise<ToolResult> =>
      d.call("record_skillpilot_verified_recall_results", {
        learningSessionId: sid,
        gradingCapability,
        assessments: [{ passed: true }, { passed: true }],
      });

    it(
      `rejects ${FLIPS} single-bit flips of a grading capability and records ` +
        `nothing; the genuine one still works (C11, G5)`,
      async function () {
        this.timeout(120_000);
        const { sid, gradingCapability } = await openBatch(`flips-${era}`);
        const before = await d.rows(sid);
        const tampered = flips(gradingCapability, FLIPS);
        // A fresh client per 400 calls: the SDK clients keep one abort listener per call they made.
        const codes: (string | undefined)[] = [];
        for (let i = 0; i < tampered.length; i += 400) {
          const fresh = await connectClient(served.fx, era);
          try {
            const call = (token: string) =>
              fresh.callTool("record_skillpilot_verified_recall_results", {
                learningSessionId: sid,
                gradingCapability: token,
                assessments: [{ passed: true }, { passed: true }],
              });
            codes.push(
              ...(await inChunks(tampered.slice(i, i + 400), PARALLEL, async (token) =>
                errorCode(await call(token)),
              )),
            );
          } finally {
            await fresh.close();
          }
        }
        const tally: Record<string, number> = {};
        for (const code of codes) tally[String(code)] = (tally[String(code)] ?? 0) + 1;
        // A flip inside the sealed bytes fails authentication; a flip in the text may already fail
        // the schema.
        assert.deepEqual(
          Object.keys(tally).sort(),
          ["CAPABILITY_INVALID", "INVALID_INPUT"].filter((k) => tally[k]).sort(),
          JSON.stringify(tally),
        );
        assert.ok(tally.CAPABILITY_INVALID >= 1000, JSON.stringify(tally));
        assert.deepEqual(await d.rows(sid), before, "zero mutation");
        assert.equal((await record(sid, gradingCapability)).isError, undefined);
      },
    );

    it(
      "rejects another session's capability, a capability of the wrong purpose, " +
        "and bit flips of batch and assessment capabilities (C11)",
      async () => {
        const a = await openBatch(`foreign-a-${era}`);
        const b = await openBatch(`foreign-b-${era}`);
        const before = await d.rows(a.sid);
        assert.equal(errorCode(await record(a.sid, b.gradingCapability)), "CAPABILITY_INVALID");
        assert.equal(
          errorCode(await record(a.sid, a.batchCapability)),
          "CAPABILITY_INVALID",
          "a batch capability does not grade",
        );
        const answers = (batchCapability: string) =>
          d.call("get_skillpilot_verified_recall_answers", {
            learningSessionId: a.sid,
            batchCapability,
          });
        assert.equal(errorCode(await answers(b.batchCapability)), "CAPABILITY_INVALID");
        assert.equal(errorCode(await answers(a.gradingCapability)), "CAPABILITY_INVALID");
        for (const bit of [0, 100, 200, 300])
          assert.equal(
            errorCode(await answers(flipSealedBit(a.batchCapability, bit))),
            "CAPABILITY_INVALID",
          );
        assert.deepEqual(await d.rows(a.sid), before);
      },
    );

    it(
      "rejects an expired capability and one minted under an older " +
        "policyRevision as CAPABILITY_STALE (C11, L11)",
      async () => {
        const { sid, gradingCapability } = await openBatch(`stale-${era}`);
        const session = (await served.fx.services.store.findSession(sid))!;
        const state = JSON.parse((await d.rows(sid)).state.state_json) as Out;
        const older = mintCapability(served.fx.services.keyring, {
          purpose: "grading",
          learningSessionId: sid,
          policyRevision: session.policyRevision - 1,
          expiresAt: new Date(served.fx.services.now().getTime() + 3600_000),
          batchId: state.recallBatch.batchId,
        });
        const before = await d.rows(sid);
        assert.equal(errorCode(await record(sid, older)), "CAPABILITY_STALE");
        d.advanceDays(1); // past every capability lifetime
        assert.equal(errorCode(await record(sid, gradingCapability)), "CAPABILITY_STALE");
        assert.deepEqual(await d.rows(sid), before);
      },
    );

    it("rejects a bit-flipped assessment capability (C11)", async () => {
      const { sid, ctx } = await d.sessionWithMastered(`exam-flip-${era}`, 5);
      const before = await d.rows(sid);
      for (const bit of [3, 97, 401]) {
        const result = await d.call("record_skillpilot_assessment_score", {
          learningSessionId: sid,
          expectedStateVersion: ctx.stateVersion,
          clientRequestId: randomUUID(),
          assessmentCapability: flipSealedBit(ctx.currentStep.assessmentCapability, bit),
          score: 50,
        });
        assert.equal(errorCode(result), "CAPABILITY_INVALID");
      }
      assert.deepEqual(await d.rows(sid), before);
    });
  });
}
