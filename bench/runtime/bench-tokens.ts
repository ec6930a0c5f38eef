import { loadDevIssuer } from "../../runtime/auth/dev-issuer.js";
import type { RuntimeServices } from "../../runtime/services.js";

/**
 * Tokens for a benchmarked server that runs the development issuer: minted once per learner with
 * the issuer key in the server's data directory (as `skillpilot auth token` does), then reused, as
 * a host reuses a learner's token. `learnerOf` maps a session to its learner.
 */
export async function benchTokens(
  dataDir: string,
  mcpUrl: string,
  scopes: readonly string[],
): Promise<(learner: string) => Promise<string>> {
  const issuer = await loadDevIssuer(dataDir);
  const origin = new URL(mcpUrl).origin;
  const minted = new Map<string, Promise<string>>();
  return (learner) => {
    let token = minted.get(learner);
    if (!token) {
      token = issuer.mint({ issuer: origin, audience: mcpUrl, subject: learner, scopes });
      minted.set(learner, token);
    }
    return token;
  };
}

/** The learner (subject) each session of a store belongs to. */
export async function sessionLearners(
  services: Pick<RuntimeServices, "store">,
  sessions: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const sid of sessions) {
    const s = await services.store.findSession(sid);
    if (s?.subject) out.set(sid, s.subject.sub);
  }
  return out;
}
