import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateKeyringConfig, type KeyringConfig } from "./capability/index.js";

/** Server-side secrets, created in the data directory on first start and never logged. */
export interface RuntimeSecrets {
  /** Key of the truncated HMAC-SHA-256 session fingerprint in logs (L13). */
  logHmacKey: string;
  /** Master keys for capabilities and option payloads (C11). */
  capabilityKeys: KeyringConfig;
}

export const secretsFileName = "secrets.json";

/** Read `<dataDir>/secrets.json`, creating it (mode 0600) with fresh random keys on first start. */
export async function loadOrCreateSecrets(dataDir: string): Promise<RuntimeSecrets> {
  const file = path.join(dataDir, secretsFileName);
  try {
    return JSON.parse(await readFile(file, "utf8")) as RuntimeSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`cannot read ${file}`);
  }
  await mkdir(dataDir, { recursive: true });
  const secrets: RuntimeSecrets = {
    logHmacKey: randomBytes(32).toString("base64url"),
    capabilityKeys: generateKeyringConfig("k1"),
  };
  try {
    // "wx": when two processes start at once, exactly one writes; the other reads its file.
    await writeFile(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600, flag: "wx" });
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(await readFile(file, "utf8")) as RuntimeSecrets;
  }
}
