import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJson } from "../canonical.js";
import { projectLayout } from "../project/project-layout.js";
import type { ServerBuild } from "./server-build.js";

/** The review freeze of one draft version: what its bytes and its contract were when frozen. */
export interface ActiveFreeze {
  version: string;
  /** sha256 of the draft's SHA256SUMS when frozen. */
  contentSha256: string;
  /** sha256 of the draft's contract.snapshot.json: the runtime must serve exactly this contract. */
  snapshotSha256: string;
  frozenAt: string;
  /**
   * The server build frozen with the draft (code, generated, curricula, skills, UI store,
   * production dependencies; see `serverBuildIdentity`): `start` refuses another build. Absent on
   * freezes recorded before builds were pinned.
   */
  serverBuild?: ServerBuild;
}

/** One line of the freeze history (append-only). */
export interface FreezeEvent {
  action: "freeze" | "unfreeze" | "published";
  version: string;
  at: string;
  contentSha256: string;
  /** The frozen server build's sha256 (freeze events). */
  serverBuildSha256?: string;
  reason?: string;
}

/** `contracts/review-freeze.json`: at most one version under review, plus the history. */
export interface FreezeState {
  active: ActiveFreeze | null;
  history: FreezeEvent[];
}

/**
 * Read the freeze state (synchronously: the runtime calls this once at start). Missing file =
 * nothing frozen.
 */
export function readFreezeState(root: string): FreezeState {
  let text: string;
  try {
    text = readFileSync(path.join(root, projectLayout.reviewFreeze), "utf8");
  } catch {
    return { active: null, history: [] };
  }
  const parsed = JSON.parse(text) as Partial<FreezeState>;
  return {
    active: parsed.active ?? null,
    history: Array.isArray(parsed.history) ? parsed.history : [],
  };
}

/** Write the freeze state as canonical JSON. */
export async function writeFreezeState(root: string, state: FreezeState): Promise<void> {
  const abs = path.join(root, projectLayout.reviewFreeze);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(
    abs,
    canonicalJson({
      $comment: "Written by skillpilot freeze / unfreeze / record-published. Do not edit by hand.",
      ...state,
    }),
  );
}
