import { readFile } from "node:fs/promises";
import type { ContractLine, LineSuccessor } from "../../generated/types.gen.js";
import { parseLine } from "./line-source.js";

/** What the contract line says about minting a new session (L11). */
export type LaunchDecision =
  | { kind: "mint"; policyRevision: number; warned: boolean }
  | { kind: "acknowledge"; policyRevision: number; successor: LineSuccessor }
  | { kind: "refuse"; code: "MAJOR_UPGRADE_REQUIRED"; successor: LineSuccessor }
  | { kind: "refuse"; code: "TEMPORARILY_UNAVAILABLE" };

/** The first-party launch origins a successor must be on (release/first-party-allowlist.json). */
export interface LaunchAllowlist {
  launchOrigins: string[];
}

/** Read and validate the line file; an unreadable or invalid line fails closed (undefined). */
export async function readLine(file: string): Promise<ContractLine | undefined> {
  return parseLine(await readFile(file, "utf8").catch(() => ""));
}

/** Read the allowlist; missing or malformed means no successor is verified. */
export async function readAllowlist(file: string): Promise<LaunchAllowlist> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<LaunchAllowlist>;
    return {
      launchOrigins: Array.isArray(parsed.launchOrigins)
        ? parsed.launchOrigins.filter((o) => typeof o === "string")
        : [],
    };
  } catch {
    return { launchOrigins: [] };
  }
}

/** A successor counts only when its launch URL is https on an exact allowlisted origin. */
export function verifiedSuccessor(
  successor: LineSuccessor | null,
  allowlist: LaunchAllowlist,
): LineSuccessor | undefined {
  if (!successor) return undefined;
  try {
    const url = new URL(successor.launchUrl);
    return url.protocol === "https:" && allowlist.launchOrigins.includes(url.origin)
      ? successor
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The launch rule of L11, decided from the server-side line only: ALLOW mints; WARN mints only
 * after an explicit acknowledgement and only with a verified successor; BLOCK mints nothing and
 * names the successor when one is verified (MAJOR_UPGRADE_REQUIRED), otherwise answers
 * TEMPORARILY_UNAVAILABLE. A missing or invalid line fails closed.
 */
export function decideLaunch(
  line: ContractLine | undefined,
  allowlist: LaunchAllowlist,
  acknowledged: boolean,
): LaunchDecision {
  if (!line) return { kind: "refuse", code: "TEMPORARILY_UNAVAILABLE" };
  const successor = verifiedSuccessor(line.successor, allowlist);
  switch (line.newSessionPolicy) {
    case "ALLOW":
      return { kind: "mint", policyRevision: line.policyRevision, warned: false };
    case "WARN":
      if (!successor) return { kind: "refuse", code: "TEMPORARILY_UNAVAILABLE" };
      return acknowledged
        ? { kind: "mint", policyRevision: line.policyRevision, warned: true }
        : { kind: "acknowledge", policyRevision: line.policyRevision, successor };
    case "BLOCK":
      return successor
        ? { kind: "refuse", code: "MAJOR_UPGRADE_REQUIRED", successor }
        : { kind: "refuse", code: "TEMPORARILY_UNAVAILABLE" };
  }
}
