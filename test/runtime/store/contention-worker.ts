/**
 * A separate process hammering one database file with read-then-write transactions through the
 * store, for the cross-process contention test. Args: <db file> <learner id> <writes>.
 * Prints the number of successful writes; exits 1 on the first failure.
 */
import { SqliteStore } from "../../../runtime/store/sqlite-store.js";

const [file, learner, writes] = process.argv.slice(2);
const store = await SqliteStore.open(file, 3);
let ok = 0;
try {
  for (let i = 0; i < Number(writes); i++) {
    await store.write(async (tx) => {
      const snapshot = await tx.loadLearner(Number(learner));
      await tx.saveState(
        Number(learner),
        snapshot.state,
        snapshot.stateVersion,
        new Date().toISOString(),
      );
    });
    ok++;
  }
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await store.close();
  process.stdout.write(`${ok}\n`);
}
