import path from "node:path";
import Database from "better-sqlite3";
import { contractScopes } from "../../generated/tools.gen.js";
import { loadDevIssuer } from "../../runtime/auth/dev-issuer.js";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";

/**
 * The bearer tokens a benchmark sends to a server that runs the development issuer, as a host
 * sends each learner's own token: one token per learner, minted once with the issuer key in the
 * server's data directory (what `skillpilot auth token` does), then reused. `refresh` reads which
 * learner each session belongs to from the server's SQLite file (after launching sessions);
 * `tokenFor` is the synchronous lookup `RawMcpCaller` takes.
 */
export async function benchTokens(dataDir: string, mcpUrl: string) {
  const issuer = await loadDevIssuer(dataDir);
  const origin = new URL(mcpUrl).origin;
  const byLearner = new Map<string, string>();
  const bySession = new Map<string, string>();
  const token = async (learner: string) => {
    let t = byLearner.get(learner);
    if (!t) {
      t = await issuer.mint({
        issuer: origin,
        audience: mcpUrl,
        subject: learner,
        scopes: contractScopes,
        ttlSeconds: 6 * 3600,
      });
      byLearner.set(learner, t);
    }
    return t;
  };
  return {
    token,
    /** Learn every session's learner from the database and mint the missing tokens. */
    async refresh(): Promise<void> {
      const db = new Database(path.join(dataDir, databaseFileName), { readonly: true });
      try {
        const rows = db.prepare("SELECT session_id, subject FROM sessions").all() as {
          session_id: string;
          subject: string | null;
        }[];
        for (const r of rows) if (r.subject) bySession.set(r.session_id, await token(r.subject));
      } finally {
        db.close();
      }
    },
    tokenFor: (args: Record<string, unknown>) =>
      bySession.get(String(args.learningSessionId ?? "")),
  };
}
