import { randomBytes } from "node:crypto";
import type { LineSuccessor } from "../../generated/types.gen.js";
import type { RuntimeConfig } from "../config/config.js";
import { localizeError, type LocalizedError } from "../error-table.js";
import type { RuntimeIdentity } from "../identity.js";
import type { ServedTarget } from "./call-context.js";
import type { Curriculum } from "./curriculum.js";
import { initialLearnerState } from "./learner-state.js";
import { decideLaunch, readAllowlist, readLine } from "./line-policy.js";
import type { LineSource } from "./line-source.js";
import { type CoachStore, floorKey } from "./ports/coach-store.js";
import type { Locale } from "../i18n/index.js";

/**
 * The contract major a session is launched for: pinned to it, under its own line (its policy,
 * revision and floor). The primary one when the launch names none.
 */
export interface LaunchTarget extends ServedTarget {
  lineFile: string;
}

/** What a launch uses of the server's services (the composition root's `RuntimeServices`). */
export interface LaunchDeps {
  config: Pick<RuntimeConfig, "allowlistFile" | "launchUrl" | "sessionTtlSeconds" | "lineFile">;
  identity: Pick<RuntimeIdentity, "contractMajor" | "workflowVersion">;
  /** The primary contract major's line. */
  line: LineSource;
  curriculum: Curriculum;
  store: CoachStore;
  /** The OAuth issuer whose subjects learners are (L14). */
  auth: { settings: { issuer: string } };
  now: () => Date;
}

/** A first-party launch request (the WebGUI or the CLI; never a chat tool). */
export interface LaunchRequest {
  /**
   * The learner: their subject (`sub`) at the configured OAuth issuer, which the session is bound
   * to (L14). Stays in the backend (C15).
   */
  learner: string;
  locale: Locale;
  /** Explicit user choice to start on a WARN line despite the successor (L11). */
  acknowledgeSuccessor?: boolean;
  /**
   * The provider lane the session is for (`schemas/lanes.json`); only that lane's endpoint serves
   * it. Absent: the openai lane.
   */
  lane?: string;
}

/** The outcome of a launch. */
export type LaunchResult =
  | {
      kind: "minted";
      learningSessionId: string;
      communicationLocale: Locale;
      expiresAt: string;
      newSessionPolicy: "ALLOW" | "WARN";
    }
  | { kind: "acknowledgementRequired"; successor: LineSuccessor }
  | { kind: "refused"; error: LocalizedError; successor?: LineSuccessor };

/** Learner names are first-party identifiers: printable, bounded, no control characters. */
export function isValidLearnerName(name: unknown): name is string {
  return (
    typeof name === "string" &&
    name.trim().length > 0 &&
    name.length <= 200 &&
    !/\p{Cc}/u.test(name)
  );
}

function newSessionId(): string {
  return `sps_${randomBytes(24).toString("base64url")}`;
}

/**
 * Mint a learning session under the contract line read right now (so a policy flip applies to
 * the next launch), pinned to the served contract major, workflow version, curriculum revision
 * and the line's policyRevision. A refused launch writes nothing; a line below the policy revision
 * floor stored in the database (which another process may have raised) refuses it.
 */
export async function launchSession(
  services: LaunchDeps,
  request: LaunchRequest,
  target: LaunchTarget = primaryTarget(services),
): Promise<LaunchResult> {
  const { config, curriculum, store } = services;
  const [line, allowlist] = await Promise.all([
    // Below the policy revision floor a line is no line (L11): the launch fails closed.
    readLine(target.lineFile).then((read) => target.line.admit(read)),
    readAllowlist(config.allowlistFile),
  ]);
  const decision = decideLaunch(line, allowlist, request.acknowledgeSuccessor === true);
  if (line) target.line.applied(line.policyRevision);
  if (decision.kind === "acknowledge")
    return { kind: "acknowledgementRequired", successor: decision.successor };
  if (decision.kind === "refuse") {
    const successor = decision.code === "MAJOR_UPGRADE_REQUIRED" ? decision.successor : undefined;
    const error = localizeError(decision.code, request.locale, {
      launchUrl: config.launchUrl,
      successorUrl: successor?.launchUrl,
    });
    return { kind: "refused", error, ...(successor && { successor }) };
  }
  const now = services.now();
  const at = now.toISOString();
  const sessionId = newSessionId();
  const expiresAt = now.getTime() + config.sessionTtlSeconds * 1000;
  const policyRevision = decision.policyRevision;
  // The floor that refuses the launch, or undefined once the session is in.
  const refusedBy = await store.write(async (tx): Promise<number | undefined> => {
    // The floor as stored, checked and raised in the transaction that inserts the session: another
    // process may have served a higher revision since this one last read it (L11).
    const floor = await tx.claimPolicyRevision(policyRevision, floorKey(target.contractMajor));
    if (floor > policyRevision) return floor;
    const learnerId = await tx.ensureLearner(request.learner.trim(), initialLearnerState, at);
    await tx.insertSession({
      sessionId,
      learnerId,
      locale: request.locale,
      contractMajor: target.contractMajor,
      workflowVersion: target.workflowVersion,
      curriculumRevision: curriculum.revision,
      policyRevision,
      createdAt: at,
      expiresAt,
      // The learner is a subject of the configured issuer: only their token can use the session.
      subject: { issuer: services.auth.settings.issuer, sub: request.learner.trim() },
      ...(request.lane && request.lane !== "openai" && { lane: request.lane }),
    });
    return undefined;
  });
  if (refusedBy !== undefined) {
    // Nothing was written: a line below the floor is no line.
    target.line.refusedBelow(policyRevision, refusedBy);
    const error = localizeError("TEMPORARILY_UNAVAILABLE", request.locale, {
      launchUrl: config.launchUrl,
    });
    return { kind: "refused", error };
  }
  return {
    kind: "minted",
    learningSessionId: sessionId,
    communicationLocale: request.locale,
    expiresAt: new Date(expiresAt).toISOString(),
    newSessionPolicy: decision.warned ? "WARN" : "ALLOW",
  };
}

/** The primary contract major: the one the services were built for. */
export function primaryTarget(
  services: Pick<LaunchDeps, "identity" | "line" | "config">,
): LaunchTarget {
  return {
    contractMajor: services.identity.contractMajor,
    workflowVersion: services.identity.workflowVersion,
    line: services.line,
    lineFile: services.config.lineFile,
  };
}
