import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import type { Scenario } from "../../../bench/runtime/interleave.js";
import { measureGroup } from "../../../bench/runtime/paired-slices.js";

/** Keep this process busy until it has used `ms` more of CPU time (however busy the machine). */
function burn(ms: number): void {
  const used = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const end = used() + ms;
  while (used() < end);
}

/** The wait before and after a group: long enough for deferred work, not for a quiet machine. */
const brief = () => new Promise((resolve) => setTimeout(resolve, 30));

/** A member whose every call takes `ms` of this process's CPU, now or (deferred) a little later. */
function member(name: string, ms: number, deferred = false): Scenario {
  const call = async () => {
    if (deferred) setTimeout(() => burn(ms), 5);
    else burn(ms);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return true;
  };
  return { name, calls: [call], pids: [process.pid], group: "test" };
}

describe("bench group slices: alternating parts, CPU charged to whoever left it (issue #34 speed row, #35 item 0)", () => {
  before(function () {
    if (!existsSync(`/proc/${process.pid}/stat`)) this.skip();
  });

  it("charges a shared process's CPU to the member whose calls used it", async () => {
    const result = await measureGroup([member("heavy", 6), member("light", 0)], 1.2, 20, 4, brief);
    const heavy = result.get("heavy")!;
    const light = result.get("light")!;
    assert.ok(heavy.latencies.length > 0 && light.latencies.length > 0);
    assert.ok(heavy.seconds > 0.9 && light.seconds > 0.9, "each member runs a whole slice");
    const perCall = (m: typeof heavy) => m.serverCpuMs! / m.latencies.length;
    assert.ok(perCall(heavy) >= 4, `heavy ${perCall(heavy)} ms per call`);
    assert.ok(perCall(heavy) > 4 * perCall(light), `light ${perCall(light)} ms per call`);
  });

  it("charges work a member's calls leave behind to that member, not to the next one", async () => {
    const result = await measureGroup(
      [member("leaves", 6, true), member("clean", 0)],
      1.2,
      20,
      4,
      brief,
    );
    const perCall = (name: string) =>
      result.get(name)!.serverCpuMs! / result.get(name)!.latencies.length;
    assert.ok(
      perCall("leaves") > 4 * perCall("clean"),
      `${perCall("leaves")} vs ${perCall("clean")}`,
    );
  });

  it("warms each member up before the first part, charged to no one", async () => {
    /** A member whose calls are heavy until it has made `cold` calls (a server after idling). */
    const warming = (name: string, cold: number): Scenario => {
      let made = 0;
      const call = async () => {
        burn(made++ < cold ? 6 : 0);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return true;
      };
      return { name, calls: [call], pids: [process.pid], group: "test" };
    };
    const perCall = (m: { serverCpuMs?: number; latencies: number[] }) =>
      m.serverCpuMs! / m.latencies.length;
    const warmed = await measureGroup([warming("warmed", 20)], 0.6, 10, 2, brief, 400);
    const cold = await measureGroup([warming("cold", 20)], 0.6, 10, 2, brief, 0);
    assert.ok(
      perCall(cold.get("cold")!) > 3 * perCall(warmed.get("warmed")!),
      `cold ${perCall(cold.get("cold")!)} vs warmed ${perCall(warmed.get("warmed")!)} ms per call`,
    );
  });
});
