import assert from "node:assert/strict";
import {
  type ClientProfile,
  profileFingerprint,
  profileProblems,
  redirectAllowed,
} from "../../../runtime/auth/client-profiles.js";

/** The native desktop client of the spec (§10.1): CIMD public client, loopback callback. */
const desktop: ClientProfile = {
  name: "codex-desktop",
  kind: "public-cimd",
  clientId: "https://chatgpt.com/oauth/codex/7yTcOAOqrumX/client.json",
  redirectUris: ["http://127.0.0.1/callback/7yTcOAOqrumX"],
  tokenEndpointAuthMethod: "none",
  pkce: "S256",
};
const RESOURCE = "https://mcp-openai.skillpilot.com/mcp";

describe("client profiles (issue #12; L14)", () => {
  it("accepts the spec's desktop CIMD client and allows its loopback callback on any port", () => {
    assert.deepEqual(profileProblems(desktop), []);
    assert.ok(redirectAllowed(desktop, "http://127.0.0.1:53127/callback/7yTcOAOqrumX"));
    assert.ok(redirectAllowed(desktop, "http://127.0.0.1/callback/7yTcOAOqrumX"));
    assert.ok(!redirectAllowed(desktop, "http://127.0.0.1:53127/callback/other"));
    assert.ok(!redirectAllowed(desktop, "http://localhost:53127/callback/7yTcOAOqrumX"));
  });

  it("refuses a public client that could fall back to confidential authentication", () => {
    assert.match(
      profileProblems({ ...desktop, tokenEndpointAuthMethod: "client_secret_basic" }).join(),
      /never authenticates at the token endpoint/,
    );
    assert.match(
      profileProblems({ ...desktop, clientId: "codex-desktop" }).join(),
      /https URL of its metadata document/,
    );
    assert.match(
      profileProblems({ ...desktop, redirectUris: ["https://evil.example/cb"] }).join(),
      /not a loopback/,
    );
  });

  it("binds the fingerprint to the OAuth resource and to nothing incidental", () => {
    const fp = profileFingerprint(desktop, RESOURCE);
    assert.match(fp, /^[0-9a-f]{64}$/);
    assert.notEqual(profileFingerprint(desktop, "https://mcp-coach-v1.skillpilot.com/mcp"), fp);
    const reordered = { ...desktop, redirectUris: [...desktop.redirectUris].reverse() };
    const keysMoved = Object.fromEntries(Object.entries(desktop).reverse()) as ClientProfile;
    assert.equal(profileFingerprint(reordered, RESOURCE), fp);
    assert.equal(profileFingerprint(keysMoved, RESOURCE), fp);
    assert.notEqual(profileFingerprint({ ...desktop, name: "renamed" }, RESOURCE), fp);
  });
});
