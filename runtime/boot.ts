import path from "node:path";
import { checkAuthConfig, createAuthRuntime } from "./auth/auth-runtime.js";
import { keyringFromConfig } from "./capability/index.js";
import { TEST_COMMIT_DELAY_ENV, type RuntimeConfig } from "./config/config.js";
import { checkDataDir, checkLogDestination } from "./config/writable-paths.js";
import { loadCurriculum } from "./domain/curriculum.js";
import { LineSource } from "./domain/line-source.js";
import { runtimeIdentity } from "./identity.js";
import { loadUiPages } from "./mcp/ui-resources.js";
import { closeLogger, createLogger } from "./observability/call-log.js";
import { createMetrics } from "./observability/metrics.js";
import { contractObservers } from "./contract-observers.js";
import { checkSecretsConfig, resolveSecrets } from "./secrets.js";
import type { RuntimeServices } from "./services.js";
import { refuseLostDatabase } from "./store/database-file.js";
import { PostgresStore } from "./store/postgres-store.js";
import { preparePrivateFile } from "./store/private-file.js";
import { databaseFileName, SqliteStore } from "./store/sqlite-store.js";
import { openStateGuard } from "./state-guard.js";

/**
 * Build the shared services from a resolved config: identity, curriculum, the checked and migrated
 * store, secrets (configured, or created in the data directory on first start, after its
 * database), logger and metrics.
 */
export async function createServices(
  config: RuntimeConfig,
  now: () => Date = () => new Date(),
): Promise<RuntimeServices> {
  const identity = runtimeIdentity(config.serverBuild);
  // Checks that read only come first: a failing one leaves nothing created (no data directory,
  // secrets, database, key or log file).
  await checkLogDestination(config.logDestination);
  await checkDataDir(config.dataDir, !config.databaseUrl);
  const authSettings = checkAuthConfig(config, identity);
  const [curriculum, uiPages] = await Promise.all([
    loadCurriculum(config.curriculumFile),
    loadUiPages(config.root),
  ]);
  checkSecretsConfig(config);
  const auth = await createAuthRuntime(config, authSettings);
  const sqliteFile = path.join(config.dataDir, databaseFileName);
  if (!config.databaseUrl) {
    await refuseLostDatabase(config.dataDir);
    await preparePrivateFile(sqliteFile);
  }
  // State schema and policy revision floor first: refuses (exit 2) before anything else opens.
  const stateGuard = await openStateGuard(config);
  const commitDelay = testCommitDelayHook(config);
  const store = await (config.databaseUrl
    ? PostgresStore.open(config.databaseUrl, identity.stateSchemaVersion)
    : SqliteStore.open(sqliteFile, identity.stateSchemaVersion, commitDelay)
  ).catch(async (error) => {
    await stateGuard.close();
    throw error;
  });
  // The secrets come after the database, so an empty database beside them means a lost one
  // (refuseLostDatabase), never a first start that stopped half-way.
  const secrets = await resolveSecrets(config).catch(async (error) => {
    await store.close();
    await stateGuard.close();
    throw error;
  });
  const logger = createLogger(config.logDestination, config.logLevel);
  stateGuard.attachLogger(logger);
  stateGuard.floor.useStore(store);
  if (commitDelay)
    logger.warn(
      { testCommitDelayMs: commitDelay.delayMs },
      `test-only crash hook ${TEST_COMMIT_DELAY_ENV} is on: never in production`,
    );
  const metrics = createMetrics();
  const observers = await contractObservers(config, identity, secrets.logHmacKey, metrics);
  return {
    config,
    identity,
    curriculum,
    uiPages,
    line: new LineSource(config.lineFile, stateGuard.floor, (revision, floor) =>
      logger.warn({ policyRevision: revision, floor }, "contract line below the revision floor"),
    ),
    store,
    stateGuard,
    keyring: keyringFromConfig(secrets.capabilityKeys),
    logHmacKey: secrets.logHmacKey,
    launchSecret: secrets.launchSecret,
    auth,
    logger,
    metrics,
    ...observers,
    now,
  };
}

/**
 * The crash harness's commit delay, announced loudly on stderr: it slows every write and exists
 * only so tests can kill the server inside a commit. It applies to the SQLite store only.
 */
function testCommitDelayHook(config: RuntimeConfig): { delayMs: number } | undefined {
  const delayMs = config.testCommitDelayMs;
  if (delayMs === undefined) return undefined;
  const scope = config.databaseUrl ? "ignored on PostgreSQL" : "SQLite store";
  process.stderr.write(
    `WARNING: ${TEST_COMMIT_DELAY_ENV}=${delayMs} is set: every commit is held ${delayMs} ms ` +
      `before and after COMMIT (a test-only crash hook, ${scope}). Never set it in production.\n`,
  );
  return config.databaseUrl ? undefined : { delayMs };
}

/** Release what services hold: close the database, then make the log durable and close it. */
export async function closeServices(services: RuntimeServices): Promise<void> {
  // The policy floor stops refreshing; its pending raises go through the store: out before it
  // closes.
  await services.stateGuard?.floor.close();
  await services.store.close();
  await services.stateGuard?.close();
  await services.traffic?.close();
  await closeLogger(services.logger);
}
