import type { ReplayStore, ReplayVerdict } from "../capability/index.js";
import type { WriteTx } from "./ports/coach-store.js";

/**
 * The database-backed replay store (C11): it spends token ids inside the caller's write
 * transaction, so a spend commits — or rolls back — together with the effect it authorizes.
 */
export class TxReplayStore implements ReplayStore {
  constructor(private readonly tx: WriteTx) {}

  spend(jti: string, use: string, expiresAt: Date): Promise<ReplayVerdict> {
    return this.tx.spendCapability(jti, use, expiresAt.getTime());
  }
}
