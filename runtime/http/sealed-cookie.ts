import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { RuntimeServices } from "../services.js";

const KEY_INFO = "start-page/sign-in/v1";
const b64 = (buf: Buffer) => buf.toString("base64url");

/**
 * Seal a value for a cookie: AES-256-GCM under a key derived from the capability keyring for this
 * one purpose, so the browser can neither read nor change it and every instance on the same keys
 * opens it (a callback may land on another instance).
 */
export function sealer(services: Pick<RuntimeServices, "keyring">) {
  const { keyring } = services;
  return {
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
      const [kid, iv, data] = (token ?? "").split(".");
      if (!kid || !iv || !data || !keyring.accepts(kid)) return undefined;
      try {
        const bytes = Buffer.from(data, "base64url");
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
        return typeof value.exp === "number" && value.exp > Date.now() / 1000 ? value : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
