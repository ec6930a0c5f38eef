import { readFileSync } from "node:fs";
import path from "node:path";
import { snapshotPath } from "../../contract-model/snapshot.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { readFreezeState } from "../../contract-model/release/review-freeze.js";
import {
  describeBuildChanges,
  serverBuildChanges,
  serverBuildIdentity,
  type ServerBuildChange,
} from "../../contract-model/release/server-build.js";

/**
 * The answer of `checkFrozenContract`: whether the server may start, and why (one line for the
 * log).
 */
export interface FrozenContractCheck {
  ok: boolean;
  message: string;
  /** The version under review freeze, when there is one. */
  frozenVersion?: string;
}

/**
 * Start-up guard of the review freeze (L3): while a version is frozen, the contract the server
 * would serve (`generated/contract.snapshot.json`) must be byte-identical to the frozen draft's
 * snapshot. `allowDrift: true` is the explicit override (e.g. `skillpilot start
 * --allow-contract-drift`); the result is then ok, and its message says that the freeze was
 * overridden. Synchronous and side-effect free, so the runtime can call it before it binds a port.
 */
export function checkFrozenContract(
  root: string,
  options: { allowDrift?: boolean } = {},
): FrozenContractCheck {
  let state: ReturnType<typeof readFreezeState>;
  try {
    state = readFreezeState(root);
  } catch (e) {
    return {
      ok: false,
      message: `contracts/review-freeze.json is unreadable: ${(e as Error).message}`,
    };
  }
  const active = state.active;
  if (!active) return { ok: true, message: "no version is under review freeze" };
  let served: string;
  try {
    served = sha256Hex(readFileSync(path.join(root, snapshotPath)));
  } catch {
    return {
      ok: false,
      message: `${snapshotPath} is missing; run \`skillpilot generate\``,
      frozenVersion: active.version,
    };
  }
  if (served === active.snapshotSha256)
    return {
      ok: true,
      message: `contract matches frozen ${active.version}`,
      frozenVersion: active.version,
    };
  const drift =
    `${snapshotPath} (sha256 ${served.slice(0, 12)}…) differs from ` +
    `the contract frozen for review in ${active.version} (sha256 ` +
    `${active.snapshotSha256.slice(0, 12)}…)`;
  return options.allowDrift
    ? {
        ok: true,
        message: `${drift}; starting anyway because the freeze was explicitly overridden`,
        frozenVersion: active.version,
      }
    : {
        ok: false,
        message:
          `${drift}; refusing to start (override explicitly, or ` +
          `\`skillpilot unfreeze ${active.version} --reason …\`)`,
        frozenVersion: active.version,
      };
}

/**
 * Start-up guard of the review freeze for the server build (§10.2: a review freeze locks package
 * and runtime behaviour): while a version is frozen, the build the server runs (see
 * `serverBuildIdentity`) must be the one recorded when it was frozen. The message names the layers
 * and files that changed, on one line. `allowDrift: true` is the explicit override. A freeze
 * recorded before builds were pinned has nothing to compare and is ok.
 */
export async function checkFrozenBuild(
  root: string,
  options: { allowDrift?: boolean } = {},
): Promise<FrozenContractCheck & { changes?: ServerBuildChange[] }> {
  let active: ReturnType<typeof readFreezeState>["active"];
  try {
    active = readFreezeState(root).active;
  } catch (e) {
    return {
      ok: false,
      message: `contracts/review-freeze.json is unreadable: ${(e as Error).message}`,
    };
  }
  if (!active) return { ok: true, message: "no version is under review freeze" };
  const frozenVersion = active.version;
  if (!active.serverBuild)
    return {
      ok: true,
      message: `the freeze of ${frozenVersion} records no server build (frozen before builds were pinned)`,
      frozenVersion,
    };
  const now = await serverBuildIdentity(root);
  const frozen = active.serverBuild;
  const changes = serverBuildChanges(frozen, now);
  if (now.sha256 === frozen.sha256 || changes.length === 0)
    return {
      ok: true,
      message: `server build matches frozen ${frozenVersion} (sha256 ${now.sha256.slice(0, 12)}…)`,
      frozenVersion,
    };
  const drift =
    `the server build (sha256 ${now.sha256.slice(0, 12)}…) differs from the build frozen for ` +
    `review in ${frozenVersion} (sha256 ${frozen.sha256.slice(0, 12)}…): changed ` +
    describeBuildChanges(changes);
  return options.allowDrift
    ? {
        ok: true,
        message: `${drift}; starting anyway because the freeze was explicitly overridden`,
        frozenVersion,
        changes,
      }
    : {
        ok: false,
        message:
          `${drift}; refusing to start (override explicitly, or ` +
          `\`skillpilot unfreeze ${frozenVersion} --reason …\`)`,
        frozenVersion,
        changes,
      };
}
