import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { quietWaits, untilQuiet } from "../../../bench/runtime/machine-quiet.js";

describe("bench slices start on a quiet machine (issue #34 speed row, #35 item 0)", () => {
  before(function () {
    if (!existsSync("/proc/stat")) this.skip();
  });

  it("resolves after one window once the machine's busy share is within the bound", async () => {
    const before = { ...quietWaits };
    const t0 = performance.now();
    assert.equal(await untilQuiet(2000, 20, 1), true);
    assert.ok(performance.now() - t0 < 1000);
    assert.equal(quietWaits.waits, before.waits + 1);
    assert.equal(quietWaits.capped, before.capped);
  });

  it("gives up at the cap when the machine never gets quiet enough, and counts it", async () => {
    const before = { ...quietWaits };
    const t0 = performance.now();
    // A bound no machine meets: it keeps waiting until the cap.
    assert.equal(await untilQuiet(120, 20, -1), false);
    assert.ok(performance.now() - t0 >= 120);
    assert.equal(quietWaits.capped, before.capped + 1);
  });
});
