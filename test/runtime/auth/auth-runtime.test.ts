import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type AuthRuntime,
  checkAuthConfig,
  createAuthRuntime,
} from "../../../runtime/auth/auth-runtime.js";
import { developmentProfile } from "../../../runtime/auth/client-profiles.js";
import { TokenRejected } from "../../../runtime/auth/token-verifier.js";
import { loadConfig } from "../../../runtime/config/config.js";
import { repoRoot } from "../support/runtime-fixture.js";

const publicUrl = "http://coach.auth-runtime.test";

describe("the resource server's remembered verifications follow the client policy on every lane (L14)", () => {
  let dir: string;
  let auth: AuthRuntime;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-auth-runtime-"));
    const config = await loadConfig(
      repoRoot,
      { dataDir: dir, port: 0, publicUrl, developmentTunnel: true },
      {},
    );
    auth = await createAuthRuntime(
      config,
      checkAuthConfig(config, { mcpUrl: `${publicUrl}/mcp`, oauthIssuer: publicUrl }),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const mint = (audience: string, issuedAt: number) =>
    (auth.devIssuer as NonNullable<AuthRuntime["devIssuer"]>).mint({
      issuer: auth.settings.issuer,
      audience,
      subject: "ann",
      scopes: auth.settings.scopesSupported,
      issuedAt,
    });

  it("fresh authorization required of a client refuses its remembered tokens at once, on each lane", async () => {
    const now = Math.floor(Date.now() / 1000);
    const lanes = auth.settings.lanes;
    assert.ok(lanes.length > 1, "more than one lane to check");
    const tokens = await Promise.all(lanes.map((l) => mint(l.resource, now - 5)));
    // Verified and remembered on every lane.
    for (const [i, lane] of lanes.entries()) {
      await auth.verifyOn(lane.id, tokens[i]);
      await auth.verifyOn(lane.id, tokens[i]);
    }
    auth.requireFreshAuthorization(new Map([[developmentProfile.clientId, now * 1000]]));
    for (const [i, lane] of lanes.entries())
      await assert.rejects(
        auth.verifyOn(lane.id, tokens[i]),
        (e: Error) => e instanceof TokenRejected && /sign in again/.test(e.message),
        lane.id,
      );
    // After a policy change the lanes verify in full again: a token issued since is served.
    auth.policyChanged();
    const fresh = await mint(lanes[0].resource, now + 1);
    assert.equal((await auth.verifyOn(lanes[0].id, fresh)).subject, "ann");
  });
});
