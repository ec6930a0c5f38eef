import type { Witness } from "../../checks/diff/diff-rule.js";

/** Longest witness JSON a message carries; the JSON report keeps the whole value in `data`. */
const maxWitnessChars = 400;

/**
 * A witness as message text — `witness call {"name":…,"arguments":{…}}` — so a text report shows
 * the call (or result, or value) the live server refuses, not only the JSON report.
 */
export function witnessText(witness: Witness | undefined): string {
  if (!witness) return "no witness call could be built";
  const json = JSON.stringify(witness.value) ?? "undefined";
  const shown = json.length > maxWitnessChars ? `${json.slice(0, maxWitnessChars)}…` : json;
  return `witness ${witness.kind} ${shown}${witness.verified ? "" : " (not verified)"}`;
}
