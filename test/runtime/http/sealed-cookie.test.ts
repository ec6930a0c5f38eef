import assert from "node:assert/strict";
import { generateKeyringConfig, keyringFromConfig } from "../../../runtime/capability/index.js";
import { cookieSealer } from "../../../runtime/http/sealed-cookie.js";

describe("runtime/http/sealed-cookie: the start page's sealed cookies", () => {
  let now = new Date("2026-12-01T10:00:00.000Z");
  const keyring = keyringFromConfig(generateKeyringConfig("k2026a"));
  const sealer = cookieSealer({ keyring, now: () => now });
  const value = { sub: "learner-1", exp: sealer.now() + 60 };
  const sealed = sealer.seal(value);

  it("opens what it sealed, until its exp by the given clock (not the process's)", () => {
    assert.deepEqual(sealer.open(sealed), value);
    now = new Date(now.getTime() + 60_000);
    assert.equal(sealer.open(sealed), undefined, "exactly at exp");
    now = new Date(now.getTime() - 1);
    assert.deepEqual(sealer.open(sealed), value);
  });

  it("opens only the exact text: no extra segment, padding, skipped or changed character", () => {
    const [kid, iv, data] = sealed.split(".");
    const last = data.at(-1) === "A" ? "B" : "A";
    for (const text of [
      `${sealed}.x`,
      `${sealed}=`,
      `${sealed}!`,
      ` ${sealed}`,
      `${kid}.${iv}=.${data}`,
      `${kid}.${iv}.${data.slice(0, -1)}${last}`,
      `${kid}.${iv.slice(0, -1)}.${data}`,
      `other.${iv}.${data}`,
      undefined,
      "",
    ])
      assert.equal(sealer.open(text), undefined, String(text));
  });
});
