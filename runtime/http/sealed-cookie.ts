import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { RuntimeServices } from "../services.js";

/** The key derivation info (and associated data) of the start page's sealed cookies. */
const KEY_INFO = "start-page/sign-in/v1";

const b64 = (buf: Buffer) => buf.toString("base64url");

/**
 * A sealed cookie exactly: `<kid>.<iv: 12 bytes>.<ciphertext | tag: 16 bytes>`, unpadded base64url.
 * Node's base64 decoder skips characters it does not know and `split` ignores extra segments, so
 * without this a changed cookie text could still open.
 */
const SEALED_COOKIE = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{23,})$/;

/** Seals values into cookie text and opens them again, by the server's clock. */
export interface CookieSealer {
  /** The server's clock in seconds (what `exp` is compared with). */
  now(): number;
  /** `value` sealed; it should carry `exp` (seconds), after which it no longer opens. */
  seal(value: object): string;
  /** The sealed value, or undefined for any text this server did not seal or that expired. */
  open<T>(token: string | undefined): T | undefined;
}

/**
 * Seal a value for a cookie: AES-256-GCM under a key derived from the capability keyring for this
 * one purpose, so the browser can neither read nor change it and every instance on the same keys
 * opens it (a callback may land on another instance).
 */
export function cookieSealer(services: Pick<RuntimeServices, "keyring" | "now">): CookieSealer {
  const { keyring } = services;
  // The server's clock (the one capabilities and sessions expire by), in seconds.
  const now = () => services.now().getTime() / 1000;
  return {
    now,
    seal(value: object): string {
      const kid = keyring.activeKid;
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keyring.derive(kid, KEY_INFO), iv, {
        authTagLength: 16,
      });
      cipher.setAAD(Buffer.from(KEY_INFO));
      const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
      return `${kid}.${b64(iv)}.${b64(Buffer.concat([body, cipher.getAuthTag()]))}`;
    },
    open<T>(token: string | undefined): T | undefined {
      const [, kid, iv, data] = SEALED_COOKIE.exec(token ?? "") ?? [];
      if (!kid || !iv || !data || !keyring.accepts(kid)) return undefined;
      try {
        const bytes = Buffer.from(data, "base64url");
        // The canonical spelling only: unused trailing bits would give the same bytes another text.
        if (b64(bytes) !== data) return undefined;
        const decipher = createDecipheriv(
          "aes-256-gcm",
          keyring.derive(kid, KEY_INFO),
          Buffer.from(iv, "base64url"),
          { authTagLength: 16 },
        );
        decipher.setAAD(Buffer.from(KEY_INFO));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        const text = Buffer.concat([
          decipher.update(bytes.subarray(0, bytes.length - 16)),
          decipher.final(),
        ]).toString("utf8");
        const value = JSON.parse(text) as T & { exp?: number };
        return typeof value.exp === "number" && value.exp > now() ? value : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
