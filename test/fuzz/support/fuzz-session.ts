import { startFixture } from "../../runtime/support/runtime-fixture.js";
import type { BlockCoverage } from "./block-coverage.js";
import { type FuzzOptions, type FuzzReport, fuzzIngress } from "./fuzz-loop.js";
import { IngressTarget } from "./ingress-target.js";
import { type PlantedDefect, plantedDefects } from "./planted-defects.js";

/** What one fuzz session runs: the loop's options, the modes to run, a planted defect. */
export interface SessionOptions extends Omit<FuzzOptions, "mode"> {
  modes: FuzzOptions["mode"][];
  plant?: PlantedDefect;
}

/**
 * Each mode's run, each against a fresh fixture server (its own data directory), measured with
 * `coverage` (started before the runtime was loaded, so every runtime function has its blocks).
 */
export async function fuzzSession(
  coverage: BlockCoverage,
  options: SessionOptions,
): Promise<FuzzReport[]> {
  const reports: FuzzReport[] = [];
  for (const mode of options.modes) {
    // Sessions outlive the days the seeding moves the clock forward (as in tool-fuzz).
    const planted = options.plant && plantedDefects[options.plant]();
    const fx = await startFixture({ sessionTtlSeconds: 90 * 86400 }, planted?.options);
    try {
      const target = await IngressTarget.open(fx);
      planted?.arm();
      try {
        reports.push(await fuzzIngress(target, coverage, { ...options, mode }));
      } finally {
        await target.close();
      }
    } finally {
      await fx.close();
    }
  }
  return reports;
}

/** The names of the planted defects. */
export const plantedDefectNames = Object.keys(plantedDefects) as PlantedDefect[];
