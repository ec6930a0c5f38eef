import path from "node:path";
import Database from "better-sqlite3";
import { contractScopes } from "../../generated/tools.gen.js";
import { loadDevIssuer } from "../../runtime/auth/dev-issuer.js";
import { databaseFileName } from "../../runtime/store/sqlite-store.js";

/**
 * Which bearer token a benchmark call carries, as a host sends each learner's own token: one token
 * per learner, minted once by `mint` and reused; `bind` records whose a session is, and `tokenFor`
 * is the synchronous lookup `RawMcpCaller` takes (by the call's `learningSessionId`).
 */
export function tokenBook(mint: (learner: string) => Promise<string>) {
  const byLearner = new Map<string, string>();
  const bySession = new Map<string, string>();
  const token = async (learner: string) => {
    let t = byLearner.get(learner);
    if (!t) {
      t = await mint(learner);
      byLearner.set(learner, t);
    }
    return t;
  };
  return {
    token,
    /** Send `learner`'s token with every call on `sessionId`. */
    async bind(sessionId: string, learner: string): Promise<void> {
      bySession.set(sessionId, await token(learner));
    },
    tokenFor: (args: Record<string, unknown>) =>
      bySession.get(String(args.learningSessionId ?? "")),
  };
}

/**
 * The token book of a server that runs the development issuer: tokens are minted with the issuer
 * key in the server's data directory (what `skillpilot auth token` does). `refresh` reads which
 * learner each session belongs to from the server's SQLite file (after launching sessions).
 */
export async function benchTokens(dataDir: string, mcpUrl: string) {
  const issuer = await loadDevIssuer(dataDir);
  const origin = new URL(mcpUrl).origin;
  const book = tokenBook((learner) =>
    issuer.mint({
      issuer: origin,
      audience: mcpUrl,
      subject: learner,
      scopes: contractScopes,
      ttlSeconds: 6 * 3600,
    }),
  );
  return {
    ...book,
    /** Learn every session's learner from the database and mint the missing tokens. */
    async refresh(): Promise<void> {
      const db = new Database(path.join(dataDir, databaseFileName), { readonly: true });
      try {
        const rows = db.prepare("SELECT session_id, subject FROM sessions").all() as {
          session_id: string;
          subject: string | null;
        }[];
        for (const r of rows) if (r.subject) await book.bind(r.session_id, r.subject);
      } finally {
        db.close();
      }
    },
  };
}
