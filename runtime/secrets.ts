import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  generateKeyringConfig,
  keyringFromConfig,
  type KeyringConfig,
} from "./capability/index.js";
import type { RuntimeConfig } from "./config/config.js";
import { isLoopbackHost } from "./config/config.js";
import { preparePrivateDir, writePrivateFileAtomic } from "./store/private-file.js";

/**
 * Server-side secrets, from configuration or created in the data directory on first start; never
 * logged.
 */
export interface RuntimeSecrets {
  /** Key of the truncated HMAC-SHA-256 session fingerprint in logs (L13). */
  logHmacKey: string;
  /** Master keys for capabilities and option payloads (C11). */
  capabilityKeys: KeyringConfig;
  /** Bearer secret of the first-party launch API when the server is reachable beyond loopback. */
  launchSecret: string;
}

export const secretsFileName = "secrets.json";

/**
 * Shortest configured launch secret or log key accepted (characters): shorter ones are guessable.
 */
const MIN_SECRET_LENGTH = 32;

/** Where each secret comes from when configured: config file key and environment variable. */
export const secretSettings = {
  logHmacKey: { key: "logHmacKey", env: "SKILLPILOT_LOG_HMAC_KEY" },
  capabilityKeys: { key: "capabilityKeys", env: "SKILLPILOT_CAPABILITY_KEYS" },
  launchSecret: { key: "launchSecret", env: "SKILLPILOT_LAUNCH_SECRET" },
} as const;

const randomSecret = () => randomBytes(32).toString("base64url");

async function readSecretsFile(file: string): Promise<Partial<RuntimeSecrets> | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read ${file}`);
  }
  try {
    return JSON.parse(text) as Partial<RuntimeSecrets>;
  } catch {
    // This version replaces the file atomically; an older one wrote it in place.
    throw new Error(
      `${file} is not valid JSON (cut short by a crash of an older version?): restore it from ` +
        `a backup, or delete it to generate new keys (capabilities and option payloads issued ` +
        `so far then stop opening, and log fingerprints change)`,
    );
  }
}

/**
 * Read `<dataDir>/secrets.json`, creating it (mode 0600, in a 0700 directory) with fresh random
 * keys on first start. A file from an older version without a launch secret gets one added. Every
 * write is atomic (temp file, fsync, rename; see `writePrivateFileAtomic`), so a crash never leaves
 * a partial file that would stop the next start.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<RuntimeSecrets> {
  const file = path.join(dataDir, secretsFileName);
  await preparePrivateDir(dataDir);
  const existing = await readSecretsFile(file);
  const text = (secrets: RuntimeSecrets) => `${JSON.stringify(secrets, null, 2)}\n`;
  if (existing?.logHmacKey && existing.capabilityKeys) {
    if (existing.launchSecret) return existing as RuntimeSecrets;
    const upgraded = { ...existing, launchSecret: randomSecret() } as RuntimeSecrets;
    await writePrivateFileAtomic(file, text(upgraded));
    return upgraded;
  }
  if (existing) throw new Error(`${file} lacks logHmacKey or capabilityKeys`);
  const secrets: RuntimeSecrets = {
    logHmacKey: randomSecret(),
    capabilityKeys: generateKeyringConfig("k1"),
    launchSecret: randomSecret(),
  };
  try {
    // Exclusive: when two processes start at once, exactly one file lands; the other reads it.
    await writePrivateFileAtomic(file, text(secrets), { exclusive: true });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return (await readSecretsFile(file)) as RuntimeSecrets;
  }
}

/**
 * The checks of `resolveSecrets` that read only the configuration: weak or malformed configured
 * secrets, and with `databaseUrl` a key every node must share that is not configured. Run before
 * anything is created; `resolveSecrets` repeats them.
 */
export function checkSecretsConfig(config: RuntimeConfig): void {
  checkConfiguredValues(config);
  if (config.databaseUrl) {
    const missing = sharedKeys(config).filter(
      (name) => configuredSecrets(config)[name] === undefined,
    );
    if (missing.length > 0)
      throw new Error(
        `DATABASE_URL is set, so every node must share its keys from ` +
          `configuration; missing: ` +
          missing
            .map((n) => `${secretSettings[n].env} (config "${secretSettings[n].key}")`)
            .join(", "),
      );
  }
}

/** The keys every node of a shared PostgreSQL database must take from configuration. */
function sharedKeys(config: RuntimeConfig): (keyof RuntimeSecrets)[] {
  return [
    "logHmacKey",
    "capabilityKeys",
    ...(isLoopbackHost(config.host) ? [] : ["launchSecret"]),
  ] as (keyof RuntimeSecrets)[];
}

/** The secrets the configuration sets (file or environment). */
function configuredSecrets(config: RuntimeConfig): Partial<RuntimeSecrets> {
  return {
    ...(config.logHmacKey && { logHmacKey: config.logHmacKey }),
    ...(config.capabilityKeys && { capabilityKeys: config.capabilityKeys }),
    ...(config.launchSecret && { launchSecret: config.launchSecret }),
  };
}

/** Refuse weak or malformed configured secrets at start, naming the setting (never the value). */
function checkConfiguredValues(config: RuntimeConfig): void {
  for (const name of ["logHmacKey", "launchSecret"] as const) {
    const value = config[name];
    if (value !== undefined && (typeof value !== "string" || value.length < MIN_SECRET_LENGTH))
      throw new Error(
        `${secretSettings[name].key} (${secretSettings[name].env}) must be a ` +
          `string of at least ${MIN_SECRET_LENGTH} characters`,
      );
  }
  if (config.capabilityKeys !== undefined) {
    try {
      keyringFromConfig(config.capabilityKeys);
    } catch (error) {
      throw new Error(
        `capabilityKeys (${secretSettings.capabilityKeys.env}): ${(error as Error).message}`,
      );
    }
  }
}

/**
 * The secrets this process runs with. Configured values (config file or environment) win. With a
 * PostgreSQL `databaseUrl` several nodes share one database, so a per-node generated key would make
 * capabilities, option payloads and log fingerprints disagree between nodes: the log key, the
 * keyring and (beyond loopback) the launch secret must then come from configuration, or start
 * fails. Otherwise what is not configured comes from `<dataDir>/secrets.json`.
 */
export async function resolveSecrets(config: RuntimeConfig): Promise<RuntimeSecrets> {
  checkSecretsConfig(config);
  const configured = configuredSecrets(config);
  if (config.databaseUrl) {
    // On loopback the launch secret is never asked for; a per-process one keeps the type total.
    return { launchSecret: randomSecret(), ...configured } as RuntimeSecrets;
  }
  // Fully configured: nothing is generated and the data directory is not touched for keys.
  if (configured.logHmacKey && configured.capabilityKeys && configured.launchSecret)
    return configured as RuntimeSecrets;
  return { ...(await loadOrCreateSecrets(config.dataDir)), ...configured };
}
