import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CompactSign } from "jose";
import { canonicalize } from "../../../evolution/definition-tags/canonical-json.js";
import { definitionTag } from "../../../evolution/definition-tags/definition-tag.js";
import { entryHash, type StatementDocument } from "../../../evolution/definition-tags/statement.js";
import { statementJwsType } from "../../../evolution/definition-tags/statement-signature.js";
import { projectLayout } from "../../../contract-model/project/project-layout.js";
import { retireDefinitions } from "../../../release/retire/retire-definitions.js";
import {
  cliVerify,
  commitAll,
  cli as skillpilot,
  publishRelease,
  useProjectCopies,
} from "../support/temp-project.js";
import { assertRefused } from "../support/tree-digest.js";

const STATEMENT = projectLayout.approvedStatement;
const JWS = projectLayout.approvedStatementJws;
const JWK_FILE = projectLayout.approvedStatementKey;

describe("release: the signed statement of approved definitions (experimental, definition tags)", function () {
  this.timeout(180_000);
  const root = useProjectCopies();
  const read = async (rel: string) => readFile(path.join(root(), rel), "utf8");
  const doc = async () => JSON.parse(await read(STATEMENT)) as StatementDocument;
  let keyDir: string;
  before(async () => {
    keyDir = await mkdtemp(path.join(tmpdir(), "sp-release-key-"));
  });
  after(() => rm(keyDir, { recursive: true, force: true }));

  /** A release key file outside the project, as an Ed25519 private JWK. */
  async function releaseKey(name: string): Promise<string> {
    const file = path.join(keyDir, `${name}.jwk.json`);
    const { privateKey } = generateKeyPairSync("ed25519");
    await writeFile(file, JSON.stringify(privateKey.export({ format: "jwk" })));
    return file;
  }

  it(
    "record-published appends a development-signed entry whose tags contract show lists, " +
      "and statement verify accepts it with only the public key",
    async () => {
      await publishRelease(root(), "1.1.3");
      const statement = await doc();
      assert.equal(statement.entries.length, 1);
      assert.deepEqual(statement.signer.development, true);
      const [entry] = statement.entries;
      assert.deepEqual(entry.event, { kind: "published", version: "1.1.3" });
      assert.equal(entry.previous, null);
      assert.deepEqual(
        entry.lanes.map((l) => l.lane),
        ["openai", "claude", "mcp", "gemini"],
      );
      const openai = entry.lanes[0];
      assert.deepEqual(
        openai.approved.map((a) => [a.kind, a.version, a.publishedAt]),
        [["published", "1.1.3", "2026-11-30"]],
      );
      assert.equal(
        openai.approved[0].tag,
        definitionTag("openai", Object.values(openai.approved[0].digests)),
      );
      assert.equal(
        openai.served?.tag,
        openai.approved[0].tag,
        "the project serves what it published",
      );
      assert.ok(existsSync(path.join(root(), projectLayout.developmentReleaseKey)));
      const jwk = JSON.parse(await read(JWK_FILE)) as Record<string, unknown>;
      assert.equal("d" in jwk, false, "only the public key is committed");

      const shown = skillpilot(root(), "contract", "show");
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(
        shown.stdout,
        /^Live approved definitions \(1\.1\.3\):$/m,
        "the output so far is kept",
      );
      assert.match(shown.stdout, /^Definition tags \(tools\/list, per lane; experimental\):$/m);
      const short = (t: string) => `${t.slice(0, 19)}…`;
      const laneTags = entry.lanes.map((l) => `${l.lane} ${short(l.approved[0].tag)}`).join("  ");
      assert.ok(shown.stdout.includes(`  1.1.3    ${laneTags}`), shown.stdout);
      assert.ok(shown.stdout.includes(`  current  ${laneTags}`), shown.stdout);
      const json = JSON.parse(skillpilot(root(), "contract", "show", "--json").stdout) as {
        definitionTags: {
          current: { tags: Record<string, string> };
          live: { tags: Record<string, string> }[];
        };
      };
      assert.equal(json.definitionTags.live[0].tags.claude, entry.lanes[1].approved[0].tag);
      assert.equal(json.definitionTags.current.tags.mcp, entry.lanes[2].served?.tag);

      const verified = skillpilot(root(), "statement", "verify");
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stdout, /^statement verified: 1 entry, development-signed/m);
      assert.match(verified.stdout, /latest: entry 1, published 1\.1\.3 on 2026-11-30/);
      const strict = skillpilot(root(), "statement", "verify", "--require-release-key");
      assert.equal(strict.code, 1);
      assert.match(strict.stderr, /development-signed/);
    },
  );

  it("retire-definitions appends an entry, keeping every earlier one; verify --previous accepts it", async () => {
    await publishRelease(root(), "1.1.3");
    const before = await doc();
    await writeFile(path.join(root(), "old.jws"), await read(JWS));
    const retired = skillpilot(
      root(),
      "retire-definitions",
      "1.1.3",
      "--reason",
      "replaced",
      "--date",
      "2026-12-02",
    );
    assert.equal(retired.code, 0, retired.stderr);
    assert.match(
      retired.stdout + retired.stderr,
      /appended entry 2 to contracts\/approved-definitions\.json/,
    );
    const after = await doc();
    assert.equal(after.entries.length, 2);
    assert.deepEqual(after.entries[0], before.entries[0], "earlier entries never change");
    const last = after.entries[1];
    assert.equal(last.previous, entryHash(before.entries[0]));
    assert.deepEqual(last.event, { kind: "retired", version: "1.1.3" });
    assert.deepEqual(last.lanes[0].approved, [], "1.1.3 is no longer live");
    assert.deepEqual(last.retired, [
      { version: "1.1.3", publishedAt: "2026-11-30", retiredAt: "2026-12-02", reason: "replaced" },
    ]);
    const verified = skillpilot(root(), "statement", "verify", "--previous", "old.jws");
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /2 entries/);
  });

  it("refuses to append to a statement whose history was edited, writing nothing", async () => {
    await publishRelease(root(), "1.1.3");
    const edited = await doc();
    edited.entries[0].lanes[0].approved[0].publishedAt = "2026-01-01";
    await writeFile(path.join(root(), STATEMENT), `${JSON.stringify(edited, null, 2)}\n`);
    await assertRefused(
      root(),
      () =>
        skillpilot(
          root(),
          "retire-definitions",
          "1.1.3",
          "--reason",
          "replaced",
          "--date",
          "2026-12-02",
        ),
      1,
      /APPROVED_STATEMENT_REFUSED.*differs from the statement contracts\/approved-definitions\.jws signs/,
    );
    const verify = skillpilot(root(), "statement", "verify");
    assert.equal(verify.code, 1);
    assert.match(verify.stderr, /approved-definitions\.json differs from the statement/);
    // Deleting the signature does not help either.
    await rm(path.join(root(), JWS));
    const result = await retireDefinitions(root(), "1.1.3", "replaced", {
      retiredAt: "2026-12-02",
    });
    assert.match(
      JSON.stringify(result.diagnostics),
      /exists without contracts\/approved-definitions\.jws/,
    );
  });

  it("refuses a history rewritten and re-signed with the same key, given the earlier statement", async () => {
    await publishRelease(root(), "1.1.3");
    await writeFile(path.join(root(), "old.jws"), await read(JWS));
    const forged = await doc();
    forged.entries[0].recordedAt = "2026-11-29";
    const devKey = JSON.parse(await read(projectLayout.developmentReleaseKey)) as Record<
      string,
      string
    >;
    const { createPrivateKey } = await import("node:crypto");
    const key = createPrivateKey({ key: devKey, format: "jwk" });
    const jws = await new CompactSign(new TextEncoder().encode(canonicalize(forged)))
      .setProtectedHeader({ alg: "EdDSA", typ: statementJwsType, kid: forged.signer.kid })
      .sign(key);
    await writeFile(path.join(root(), JWS), `${jws}\n`);
    await writeFile(path.join(root(), STATEMENT), `${JSON.stringify(forged)}\n`);
    assert.equal(
      skillpilot(root(), "statement", "verify").code,
      0,
      "alone, a re-signed statement verifies",
    );
    const refused = skillpilot(root(), "statement", "verify", "--previous", "old.jws");
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /statement refused: the statement rewrites history: entry 1 differs/,
    );
  });

  it("signs with the release key from SKILLPILOT_RELEASE_KEY and never falls back to another key", async () => {
    const key = await releaseKey("release");
    process.env.SKILLPILOT_RELEASE_KEY = key;
    try {
      await publishRelease(root(), "1.1.3");
    } finally {
      delete process.env.SKILLPILOT_RELEASE_KEY;
    }
    const statement = await doc();
    assert.equal(statement.signer.development, false);
    const verified = skillpilot(root(), "statement", "verify", "--require-release-key");
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /signed by release key /);
    assert.equal(existsSync(path.join(root(), projectLayout.developmentReleaseKey)), false);

    const retire = ["retire-definitions", "1.1.3", "--reason", "replaced", "--date", "2026-12-02"];
    await assertRefused(
      root(),
      () => skillpilot(root(), ...retire),
      1,
      /signed by the release key .*set SKILLPILOT_RELEASE_KEY/,
    );
    const other = await releaseKey("other");
    await assertRefused(
      root(),
      () => skillpilot(root(), ...retire, "--release-key", other),
      1,
      /not by [A-Za-z0-9_-]{43}; a statement is signed by one release key/,
    );
    await assertRefused(
      root(),
      () => skillpilot(root(), ...retire, "--release-key", path.join(keyDir, "missing.jwk")),
      1,
      /cannot sign .*cannot be read \(ENOENT\)/,
    );
    const done = skillpilot(root(), ...retire, "--release-key", key);
    assert.equal(done.code, 0, done.stderr);
    assert.equal((await doc()).entries.length, 2);
  });

  it("lets a release key take over a development-signed statement, keeping its entries", async () => {
    await publishRelease(root(), "1.1.3");
    const before = await doc();
    const key = await releaseKey("takeover");
    const run = skillpilot(
      root(),
      "retire-definitions",
      "1.1.3",
      "--reason",
      "replaced",
      "--date",
      "2026-12-02",
      "--release-key",
      key,
    );
    assert.equal(run.code, 0, run.stderr);
    const after = await doc();
    assert.equal(after.signer.development, false);
    assert.notEqual(after.signer.kid, before.signer.kid);
    assert.deepEqual(after.entries[0], before.entries[0]);
    const jwk = JSON.parse(await read(JWK_FILE)) as { kid: string };
    assert.equal(jwk.kid, after.signer.kid, "the committed public key is the release key's");
    assert.equal(skillpilot(root(), "statement", "verify", "--require-release-key").code, 0);
  });

  it("verify (the CI gate) refuses a statement that no longer verifies or rewrites a committed entry", async () => {
    await publishRelease(root(), "1.1.3");
    commitAll(root(), "publish 1.1.3");
    const clean = cliVerify(root());
    assert.equal(clean.status, 0, clean.output);
    assert.doesNotMatch(clean.output, /APPROVED_STATEMENT/);

    // A retirement recorded by hand: the statement lags behind (a warning, not a failure).
    await writeFile(
      path.join(root(), projectLayout.retiredDefinitions),
      JSON.stringify({
        format: "skillpilot-retired-definitions/1",
        retirements: [{ version: "1.1.3", reason: "by hand", retiredAt: "2026-12-02" }],
      }),
    );
    const behind = skillpilot(root(), "verify");
    assert.equal(behind.code, 0, behind.stderr);
    assert.match(
      behind.stderr,
      /APPROVED_STATEMENT_BEHIND.*lists 1\.1\.3 on openai, the release records make none live/,
    );
    await rm(path.join(root(), projectLayout.retiredDefinitions));

    // Re-signed with the (development) key but rewriting entry 1: git still has the original.
    const forged = await doc();
    forged.entries[0].recordedAt = "2026-11-29";
    const { createPrivateKey } = await import("node:crypto");
    const key = createPrivateKey({
      key: JSON.parse(await read(projectLayout.developmentReleaseKey)) as Record<string, string>,
      format: "jwk",
    });
    const jws = await new CompactSign(new TextEncoder().encode(canonicalize(forged)))
      .setProtectedHeader({ alg: "EdDSA", typ: statementJwsType, kid: forged.signer.kid })
      .sign(key);
    await writeFile(path.join(root(), JWS), `${jws}\n`);
    await writeFile(path.join(root(), STATEMENT), `${JSON.stringify(forged)}\n`);
    const rewritten = cliVerify(root());
    assert.equal(rewritten.status, 1, rewritten.output);
    assert.match(
      rewritten.output,
      /APPROVED_STATEMENT_INVALID.*rewrites the statement committed in git:[0-9a-f]{12}: entry 1 differs/,
    );

    // The readable copy edited alone: refused by the signature check.
    await writeFile(path.join(root(), STATEMENT), "{}\n");
    const edited = cliVerify(root());
    assert.equal(edited.status, 1);
    assert.match(
      edited.output,
      /APPROVED_STATEMENT_INVALID.*approved-definitions\.json differs from the statement/,
    );
  });

  it("statement verify: bad input exits 2, another key or a tampered token is refused (1), no stacks", async () => {
    await publishRelease(root(), "1.1.3");
    await writeFile(path.join(root(), "not-json.jwk"), "{");
    await writeFile(
      path.join(root(), "private.jwk"),
      JSON.stringify(generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" })),
    );
    const otherPublic = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    await writeFile(path.join(root(), "other.jwk"), JSON.stringify(otherPublic));
    for (const [args, code, message] of [
      [["--key", "not-json.jwk"], 2, /not-json\.jwk is not JSON/],
      [["--key", "private.jwk"], 2, /private key; give the public JWK/],
      [["--key", "absent.jwk"], 2, /cannot read absent\.jwk \(ENOENT\)/],
      [["--statement", "absent.jws"], 2, /cannot read absent\.jws/],
      [["--key", "other.jwk"], 1, /statement refused: signed by another key/],
    ] as const) {
      const run = skillpilot(root(), "statement", "verify", ...args);
      assert.equal(run.code, code, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack");
    }
    const [h, p, s] = (await read(JWS)).trim().split(".");
    await writeFile(
      path.join(root(), "none.jws"),
      `${Buffer.from('{"alg":"none"}').toString("base64url")}.${p}.${s}`,
    );
    const none = skillpilot(root(), "statement", "verify", "--statement", "none.jws");
    assert.equal(none.code, 1);
    assert.match(none.stderr, /alg "none" is refused/);
    await writeFile(path.join(root(), "cut.jws"), `${h}.${p.slice(0, -4)}.${s}`);
    assert.equal(skillpilot(root(), "statement", "verify", "--statement", "cut.jws").code, 1);
    const help = skillpilot(root(), "statement", "verify", "--help");
    assert.match(help.stdout, /Exit codes: 0 verified, 1 refused .*2 usage error/s);
  });
});
