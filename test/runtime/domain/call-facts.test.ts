import assert from "node:assert/strict";
import {
  factsOf,
  mergeFacts,
  reported,
  reportingFailure,
  sessionFacts,
} from "../../../runtime/domain/call-facts.js";
import type { SessionRecord } from "../../../runtime/domain/ports/coach-store.js";
import { CoachError } from "../../../runtime/errors.js";

const session = {
  sessionId: "sps_call-facts-test",
  learnerId: 7,
  locale: "de",
  contractMajor: 1,
  workflowVersion: "wf",
  curriculumRevision: "cr",
  policyRevision: 1,
  createdAt: "",
  expiresAt: 0,
} as SessionRecord;

describe("the log facts a call returns (L13)", () => {
  it("ride on a handler's output without changing its bytes, its keys or its equality", () => {
    const output = reported({ stateVersion: 3, items: [1, 2] }, { stateVersion: 3 });
    assert.deepEqual(factsOf(output), { stateVersion: 3 });
    assert.equal(JSON.stringify(output), '{"stateVersion":3,"items":[1,2]}');
    assert.deepStrictEqual(output, { stateVersion: 3, items: [1, 2] });
    assert.deepEqual(Object.keys(output), ["stateVersion", "items"]);
    assert.deepEqual({ ...output }, { stateVersion: 3, items: [1, 2] });
  });

  it("are none on a value that carries none, or on a value that cannot carry any", () => {
    assert.deepEqual(factsOf({ a: 1 }), {});
    assert.deepEqual(factsOf(undefined), {});
    assert.deepEqual(factsOf(reported("text", { stateVersion: 1 })), {});
    assert.deepEqual(factsOf(reported(Object.freeze({ a: 1 }), { stateVersion: 1 })), {});
  });

  it("leave with what a call throws, over the facts its error already carried", async () => {
    const gate = reported(new CoachError("SESSION_EXPIRED"), sessionFacts(session));
    const facts = { clientRequestId: "r1", stateVersion: undefined };
    const thrown = await reportingFailure(facts, async () => {
      throw gate;
    }).catch((error: unknown) => error);
    assert.equal(thrown, gate, "the error itself, still a CoachError");
    assert.ok(thrown instanceof CoachError);
    assert.deepEqual(factsOf(thrown), { session, locale: "de", clientRequestId: "r1" });
  });

  it("are read when the call throws, so what the work learned until then is kept", async () => {
    const facts: { stateVersion?: number } = {};
    const thrown = await reportingFailure(facts, async () => {
      facts.stateVersion = 5;
      throw new CoachError("STATE_CONFLICT");
    }).catch((error: unknown) => error);
    assert.deepEqual(factsOf(thrown), { stateVersion: 5 });
  });

  it("merge without letting an unknown fact erase a known one", () => {
    assert.deepEqual(mergeFacts({ stateVersion: 2, locale: "en" }, { stateVersion: undefined }), {
      stateVersion: 2,
      locale: "en",
    });
    assert.deepEqual(mergeFacts({ stateVersion: 2 }, { stateVersion: 3 }), { stateVersion: 3 });
  });
});
