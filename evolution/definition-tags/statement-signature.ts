import {
  calculateJwkThumbprint,
  compactVerify,
  decodeProtectedHeader,
  importJWK,
  type JWK,
} from "jose";
import { canonicalize } from "./canonical-json.js";
import { type StatementDocument, statementProblems } from "./statement.js";

/** The JWS `typ` of a signed statement. */
export const statementJwsType = "skillpilot-approved-definitions+jws";
/** The only JWS algorithm a statement is signed or verified with. */
export const statementAlgorithm = "EdDSA";

/** The outcome of verifying a signed statement. */
export type StatementVerdict =
  | { ok: true; document: StatementDocument; kid: string; development: boolean }
  | { ok: false; reason: string };

/** Header members that would let the token choose its own key: never accepted. */
const keyBearingHeaders = ["jwk", "jku", "x5u", "x5c", "x5t", "x5t#S256", "crit"];
const compactShape = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const defaultMaxBytes = 16 * 1024 * 1024;

/**
 * What makes a value unusable as a statement's public key (an Ed25519 public JWK), or undefined.
 * A private key is refused too: verification needs, and should be given, the public half only.
 */
export function publicKeyProblem(jwk: unknown): string | undefined {
  if (jwk === null || typeof jwk !== "object" || Array.isArray(jwk))
    return "the key is not a JWK object";
  const k = jwk as Record<string, unknown>;
  if (k.kty !== "OKP" || k.crv !== "Ed25519") return "the key is not an Ed25519 (OKP) JWK";
  if (typeof k.x !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(k.x))
    return "the key's x is not a base64url Ed25519 public key";
  if ("d" in k) return "the key is a private key; give the public JWK";
  return undefined;
}

/** The RFC 7638 thumbprint of an Ed25519 public JWK: the `kid` statements name. */
export const keyId = (jwk: JWK): Promise<string> =>
  calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: jwk.x });

/**
 * Verify a compact JWS statement offline with only the public key. Refused (with the reason):
 * anything but a three-part compact JWS, any `alg` but EdDSA (`none`, HS256 and every other
 * confusion), a header that carries or points to its own key, another key's `kid`, a signature
 * that does not verify, a payload that is not the canonical JSON of a statement, or a statement
 * whose chain or tags do not hold. The caller checks the key first with {@link publicKeyProblem}.
 */
export async function verifyStatement(
  jws: string,
  publicJwk: JWK,
  options: { maxBytes?: number } = {},
): Promise<StatementVerdict> {
  const refuse = (reason: string): StatementVerdict => ({ ok: false, reason });
  const token = typeof jws === "string" ? jws.trim() : "";
  if (token.length > (options.maxBytes ?? defaultMaxBytes))
    return refuse("the statement is too large");
  if (!compactShape.test(token)) return refuse("not a compact JWS (header.payload.signature)");
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(token) as Record<string, unknown>;
  } catch {
    return refuse("the JWS header is not base64url JSON");
  }
  if (header.alg !== statementAlgorithm)
    return refuse(
      `alg ${JSON.stringify(header.alg)} is refused: statements are signed with EdDSA only`,
    );
  const carried = keyBearingHeaders.filter((h) => h in header);
  if (carried.length)
    return refuse(`the header carries ${carried.join(", ")}; the key comes from the verifier only`);
  if (header.typ !== statementJwsType)
    return refuse(`typ ${JSON.stringify(header.typ)} is not ${statementJwsType}`);
  const kid = await keyId(publicJwk);
  if (header.kid !== kid)
    return refuse(
      `signed by another key (kid ${String(header.kid).slice(0, 64)}, this key is ${kid})`,
    );
  let payload: Uint8Array;
  try {
    const key = await importJWK({ kty: "OKP", crv: "Ed25519", x: publicJwk.x }, statementAlgorithm);
    ({ payload } = await compactVerify(token, key, { algorithms: [statementAlgorithm] }));
  } catch {
    return refuse(
      "the signature does not verify with this key (the statement was changed or signed by another key)",
    );
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(payload);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return refuse("the signed payload is not JSON");
  }
  let canonical: string;
  try {
    canonical = canonicalize(doc);
  } catch (e) {
    return refuse(`the signed payload has no canonical form: ${(e as Error).message}`);
  }
  if (canonical !== text) return refuse("the signed payload is not canonical JSON (RFC 8785)");
  const problems = statementProblems(doc);
  if (problems.length) return refuse(problems.join("; "));
  const statement = doc as StatementDocument;
  if (statement.signer.kid !== kid)
    return refuse(`the statement names signer ${statement.signer.kid}, not ${kid}`);
  return { ok: true, document: statement, kid, development: statement.signer.development };
}
