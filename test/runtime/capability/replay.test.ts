import assert from "node:assert/strict";
import {
  MemoryReplayStore,
  mintCapability,
  verifyCapability,
} from "../../../runtime/capability/index.js";
import { gradingExpectation, gradingRequest, keyring } from "./capability-fixtures.js";

async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "accepted";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe("runtime/capability: replay (C11, G6)", () => {
  it(
    "accepts the first spend and an exact retry, rejects another request " +
      "spending it (C11, G6)",
    async () => {
      const store = new MemoryReplayStore();
      const token = mintCapability(keyring, gradingRequest);
      const first = await verifyCapability(keyring, token, gradingExpectation, {
        store,
        use: "input-hash-A",
      });
      const retry = await verifyCapability(keyring, token, gradingExpectation, {
        store,
        use: "input-hash-A",
      });
      assert.equal(retry.jti, first.jti);
      assert.equal(
        await refusal(
          verifyCapability(keyring, token, gradingExpectation, { store, use: "input-hash-B" }),
        ),
        "CAPABILITY_REPLAYED",
      );
    },
  );

  it(
    "checks staleness before replay: a spent token past expiry is stale, not " + "replayed (C11)",
    async () => {
      const store = new MemoryReplayStore();
      const token = mintCapability(keyring, gradingRequest);
      await verifyCapability(keyring, token, gradingExpectation, { store, use: "A" });
      const later = {
        ...gradingExpectation,
        now: new Date(gradingRequest.expiresAt.getTime() + 1),
      };
      assert.equal(
        await refusal(verifyCapability(keyring, token, later, { store, use: "B" })),
        "CAPABILITY_STALE",
      );
    },
  );

  it("never spends a token that failed an earlier check (C11)", async () => {
    const store = new MemoryReplayStore();
    const token = mintCapability(keyring, gradingRequest);
    const wrongBatch = { ...gradingExpectation, batchId: "b2" };
    assert.equal(
      await refusal(verifyCapability(keyring, token, wrongBatch, { store, use: "A" })),
      "CAPABILITY_STALE",
    );
    assert.equal(store.size, 0);
  });

  it("works with an asynchronous store, as a database-backed one will be (C11)", async () => {
    const memory = new MemoryReplayStore();
    const store = {
      spend: async (jti: string, use: string, at: Date) => memory.spend(jti, use, at),
    };
    const token = mintCapability(keyring, gradingRequest);
    await verifyCapability(keyring, token, gradingExpectation, { store, use: "A" });
    assert.equal(
      await refusal(verifyCapability(keyring, token, gradingExpectation, { store, use: "B" })),
      "CAPABILITY_REPLAYED",
    );
  });

  it("prunes only entries whose expiry has passed", () => {
    const store = new MemoryReplayStore();
    store.spend("a", "x", new Date(1000));
    store.spend("b", "x", new Date(3000));
    assert.equal(store.prune(new Date(2000)), 1);
    assert.equal(store.size, 1);
    assert.equal(store.spend("b", "y", new Date(3000)), "replayed");
    assert.equal(store.spend("a", "y", new Date(3000)), "fresh");
  });
});
