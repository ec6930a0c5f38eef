import { staleTagsMetaKey } from "./known-tags.js";

/**
 * What the server does with a `tools/call` that names a `tools/list` tag:
 * - `ignore`: handle the call as without hints (tags off, no tag sent, or the tag is current);
 * - `honour`: serve the call under the definition the tag describes, and signal;
 * - `signal`: serve it under the current definition (a call valid against the held definition is
 *   valid against it) and name `tools/list` in the result's staleTags;
 * - `reject`: refuse it before validation and execution, naming `tools/list` in error data.
 */
export type TagAction = "ignore" | "honour" | "signal" | "reject";

/** How the server treats tags: experimental and off unless configured. */
export type TagMode = "off" | "on";

/**
 * Contract-Diff's classification of the called tool between the definition the client holds and
 * the current one (checks/diff/semver-class.ts: `server-only`, `PATCH`, `MINOR`, `incompatible`),
 * plus the case no diff classifies: the current listing has no such tool any more.
 */
export type HeldToolChange = "server-only" | "PATCH" | "MINOR" | "incompatible" | "not-current";

/** What the server knows when a call arrives (all of it from the pure pieces beside this file). */
export interface TagCall {
  mode: TagMode;
  /** The `tools/list` tag the request sent, if any (from `readKnownTags`). */
  knownTag?: string;
  /** The tag of the set this lane serves now. */
  currentTag: string;
  /** The called tool's digest in each live approved set of this lane, by that set's tag. */
  heldDigest: (tag: string) => { digest?: string; live: boolean };
  /** The called tool's current digest, undefined when the current listing has no such tool. */
  currentDigest?: string;
  /** Contract-Diff's class of the tool's change from `held` to the current definition. */
  classify: (heldDigest: string) => HeldToolChange;
  /** True when the server still serves this exact definition (an adapter of a superseded one). */
  serves: (digest: string) => boolean;
}

/** The action and what to send with it. */
export interface TagDecision {
  action: TagAction;
  /** Why, for the log line (never sent to the client). */
  reason: string;
  /** The digest of the definition the call is served under (honour, signal, ignore). */
  servedDigest?: string;
  /** For signal and honour: the result `_meta` member; for reject: the error `data`. */
  staleTags?: string[];
}

const stale = ["tools/list"];

/**
 * The decision table the server applies to a `tools/call` with a `tools/list` tag (see
 * docs/definition-tags.md). Pure: everything it needs is in `call`.
 */
export function decideTag(call: TagCall): TagDecision {
  const current = call.currentDigest;
  if (call.mode === "off")
    return { action: "ignore", reason: "tags are off", servedDigest: current };
  if (call.knownTag === undefined)
    return { action: "ignore", reason: "no tools/list tag sent", servedDigest: current };
  if (call.knownTag === call.currentTag)
    return { action: "ignore", reason: "the tag is current", servedDigest: current };
  const held = call.heldDigest(call.knownTag);
  if (!held.live)
    return { action: "reject", reason: "the tag is no live approved set", staleTags: stale };
  if (held.digest === undefined) {
    // The held listing had no such tool: the call was not built from it. Serve what is current.
    if (current === undefined)
      return { action: "reject", reason: "no such tool, held or current", staleTags: stale };
    return {
      action: "signal",
      reason: "the tool is new since the tag",
      servedDigest: current,
      staleTags: stale,
    };
  }
  // Equal digests are not enough: the digest leaves `_meta` out, where a change can still break the
  // host (e.g. `_meta.ui.visibility` taking the tool from the model). Contract-Diff decides.
  const change = current === undefined ? "not-current" : call.classify(held.digest);
  if (change === "server-only" || change === "PATCH" || change === "MINOR")
    return {
      action: "signal",
      reason: `the tool changed compatibly (${change})`,
      servedDigest: current,
      staleTags: stale,
    };
  if (call.serves(held.digest))
    return {
      action: "honour",
      reason: `the held definition is still served (${change})`,
      servedDigest: held.digest,
      staleTags: stale,
    };
  return { action: "reject", reason: `the tool changed (${change})`, staleTags: stale };
}

/** The result `_meta` members a decision adds: staleTags for honour and signal, none otherwise. */
export function staleTagsMeta(decision: TagDecision): Record<string, string[]> {
  return decision.action === "honour" || decision.action === "signal"
    ? { [staleTagsMetaKey]: decision.staleTags ?? stale }
    : {};
}
