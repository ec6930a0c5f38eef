import { primaryLaneId } from "./lane.js";

/**
 * The start page a learner of `lane` is sent to: the configured launch URL, with `?lane=` for every
 * lane but the primary one, so a session started there is one that lane's endpoint serves.
 */
export function laneLaunchUrl(launchUrl: string, lane: string | undefined): string {
  if (lane === undefined || lane === primaryLaneId) return launchUrl;
  const url = new URL(launchUrl);
  url.searchParams.set("lane", lane);
  return url.href;
}
