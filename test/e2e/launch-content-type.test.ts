import assert from "node:assert/strict";
import { type RuntimeFixture, startFixture } from "../runtime/support/runtime-fixture.js";

describe("the launch API takes JSON only", function () {
  this.timeout(60_000);
  let fx: RuntimeFixture;
  before(async () => {
    fx = await startFixture();
  });
  after(() => fx?.close());

  for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
    it(`a ${type} body starts no session (415), whatever it holds`, async () => {
      const res = await fetch(`${fx.server.origin}/api/sessions`, {
        method: "POST",
        headers: { "content-type": type },
        body: JSON.stringify({ learner: "form-post" }),
      });
      assert.equal(res.status, 415);
      assert.equal(((await res.json()) as { error: string }).error, "unsupported_media_type");
      assert.equal((await fx.db("sessions")).length, 0);
    });

  it("a body without a type starts nothing either; application/json starts a session", async () => {
    const bare = await fetch(`${fx.server.origin}/api/sessions`, { method: "POST" });
    assert.equal(bare.status, 415);
    assert.equal((await fx.launch({ learner: "json-post" })).status, 201);
    assert.equal((await fx.db("sessions")).length, 1);
  });
});
