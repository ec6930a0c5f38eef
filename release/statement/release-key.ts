import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { JWK } from "jose";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { keyId } from "../../evolution/definition-tags/statement-signature.js";

/** The environment variable naming the release key file (outside the repository). */
export const releaseKeyEnv = "SKILLPILOT_RELEASE_KEY";

/** A key that signs statements. */
export interface SigningKey {
  privateKey: KeyObject;
  /** The public half as committed (`contracts/approved-definitions.jwk.json`). */
  publicJwk: JWK & { kid: string };
  kid: string;
  /** True for the development key (no release key configured). */
  development: boolean;
  /** For a development key just generated: write it to its git-ignored file (call on success). */
  persist?: () => Promise<void>;
}

/**
 * The key statements are signed with: the release key file given (a flag, else
 * `SKILLPILOT_RELEASE_KEY`) — an Ed25519 private JWK or PKCS#8 PEM kept outside the repository —
 * or else the project's development key under the git-ignored data folder, generated on first
 * use and written only when the caller persists it (a refused step writes nothing). Throws an Error naming the file for a key that cannot be read or is not Ed25519.
 */
export async function signingKey(root: string, keyFile?: string): Promise<SigningKey> {
  const file = keyFile ?? process.env[releaseKeyEnv];
  if (file) return fromFile(path.resolve(root, file), false);
  const dev = path.join(root, projectLayout.developmentReleaseKey);
  const text = await readFile(dev, "utf8").catch(() => undefined);
  if (text !== undefined) return fromText(text, projectLayout.developmentReleaseKey, true);
  const { privateKey } = generateKeyPairSync("ed25519");
  const persist = async () => {
    await mkdir(path.dirname(dev), { recursive: true });
    await writeFile(dev, `${JSON.stringify(privateKey.export({ format: "jwk" }))}\n`, {
      mode: 0o600,
    });
  };
  return { ...(await describe(privateKey, true)), persist };
}

async function fromFile(abs: string, development: boolean): Promise<SigningKey> {
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (e) {
    throw new Error(
      `the release key ${abs} cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  return fromText(text, abs, development);
}

async function fromText(text: string, label: string, development: boolean): Promise<SigningKey> {
  let key: KeyObject;
  try {
    key = text.trimStart().startsWith("-----BEGIN")
      ? createPrivateKey(text)
      : createPrivateKey({ key: JSON.parse(text) as Record<string, string>, format: "jwk" });
  } catch {
    throw new Error(`${label} is not a private key (an Ed25519 JWK or PKCS#8 PEM)`);
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${label} is not an Ed25519 key`);
  return describe(key, development);
}

async function describe(privateKey: KeyObject, development: boolean): Promise<SigningKey> {
  const pub = createPublicKey(privateKey).export({ format: "jwk" }) as JWK;
  const kid = await keyId(pub);
  return {
    privateKey,
    publicJwk: { kty: "OKP", crv: "Ed25519", x: pub.x, kid, alg: "EdDSA", use: "sig" },
    kid,
    development,
  };
}
