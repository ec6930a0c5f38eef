import assert from "node:assert/strict";
import { createHmac, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { CompactSign, type JWK } from "jose";
import type { ApprovedDefinitions } from "../../../evolution/approved-definitions.js";
import {
  liveDefinitionSets,
  servedDefinitionSet,
} from "../../../evolution/definition-tags/approved-tags.js";
import { canonicalize } from "../../../evolution/definition-tags/canonical-json.js";
import {
  entryHash,
  historyRewrite,
  nextEntry,
  statementComment,
  type StatementDocument,
  statementFormat,
  statementProblems,
  trackedDrafts,
} from "../../../evolution/definition-tags/statement.js";
import {
  keyId,
  publicKeyProblem,
  statementJwsType,
  verifyStatement,
} from "../../../evolution/definition-tags/statement-signature.js";

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const lanes = ["openai", "claude"];
const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object" },
});

/** An approved-definitions model: 1.1.3 published with a and b, the draft 1.1.4 frozen with a and b'. */
function model(): ApprovedDefinitions {
  const pub = { kind: "published" as const, version: "1.1.3", imported: false, snapshotFile: "p" };
  const draft = { kind: "frozen-draft" as const, version: "1.1.4", snapshotFile: "d" };
  const def = (t: ReturnType<typeof tool>, holders: ApprovedDefinitions["holders"]) => ({
    tool: t.name,
    sha256: "unused",
    contractMajor: 1,
    descriptor: t,
    holders,
  });
  return {
    tools: new Map([
      ["a", [def(tool("a", "A"), [pub, draft])]],
      ["b", [def(tool("b", "B"), [pub]), def(tool("b", "B2"), [draft])]],
    ]),
    holders: [pub, draft],
    retired: [],
    problems: [],
  };
}

function statement(kid: string, entries = 2): StatementDocument {
  const defs = model();
  const list: StatementDocument["entries"] = [];
  for (let i = 0; i < entries; i++)
    list.push(
      nextEntry(list, {
        event: { kind: "published", version: `1.1.${3 + i}` },
        recordedAt: `2026-11-3${i}`,
        lanes,
        served: servedDefinitionSet([tool("a", "A"), tool("b", "B2")], lanes),
        sets: liveDefinitionSets(defs, lanes),
        defs,
        publishedAt: new Map([["1.1.3", "2026-11-30"]]),
      }),
    );
  return {
    $comment: statementComment,
    format: statementFormat,
    tracking: trackedDrafts,
    signer: { kid, development: true },
    entries: list,
  };
}

async function sign(
  payload: string,
  key: KeyObject,
  header: Record<string, unknown>,
): Promise<string> {
  return new CompactSign(new TextEncoder().encode(payload))
    .setProtectedHeader({ alg: "EdDSA", typ: statementJwsType, ...header })
    .sign(key);
}

describe("evolution/definition-tags: the signed statement of approved definitions", () => {
  let privateKey: KeyObject;
  let jwk: JWK;
  let kid: string;
  before(async () => {
    ({ privateKey } = generateKeyPairSync("ed25519"));
    jwk = createPublicKey(privateKey).export({ format: "jwk" }) as JWK;
    kid = await keyId(jwk);
  });

  it("tags every live approved set per lane, and the served listing equal to the draft's", () => {
    const sets = liveDefinitionSets(model(), lanes);
    assert.deepEqual(
      sets.map((s) => s.holder.version),
      ["1.1.3", "1.1.4"],
    );
    assert.notEqual(sets[0].tags.openai, sets[1].tags.openai, "b changed");
    assert.notEqual(sets[0].tags.openai, sets[0].tags.claude, "one tag per lane");
    const served = servedDefinitionSet([tool("b", "B2"), tool("a", "A")], lanes);
    assert.deepEqual(served.tags, sets[1].tags, "the served set is the frozen draft's");
  });

  it("verifies a statement signed with EdDSA by the key, and says it is development-signed", async () => {
    const doc = statement(kid);
    assert.deepEqual(statementProblems(doc), []);
    const verdict = await verifyStatement(await sign(canonicalize(doc), privateKey, { kid }), jwk);
    assert.ok(verdict.ok, JSON.stringify(verdict));
    assert.equal(verdict.development, true);
    assert.equal(verdict.document.entries[1].previous, entryHash(doc.entries[0]));
  });

  it("refuses a tampered payload, another key and a wrong kid, naming why", async () => {
    const jws = await sign(canonicalize(statement(kid)), privateKey, { kid });
    const [h, p, s] = jws.split(".");
    const edited = b64(Buffer.from(p, "base64url").toString().replace('"1.1.3"', '"1.1.9"'));
    const tampered = await verifyStatement(`${h}.${edited}.${s}`, jwk);
    assert.deepEqual(tampered, {
      ok: false,
      reason:
        "the signature does not verify with this key (the statement was changed or signed by another key)",
    });
    const other = generateKeyPairSync("ed25519").privateKey;
    const otherJwk = createPublicKey(other).export({ format: "jwk" }) as JWK;
    const byOther = await verifyStatement(jws, otherJwk);
    assert.ok(!byOther.ok && /signed by another key/.test(byOther.reason));
    const forged = await sign(canonicalize(statement(kid)), other, { kid });
    const wrongSig = await verifyStatement(forged, jwk);
    assert.ok(!wrongSig.ok && /signature does not verify/.test(wrongSig.reason));
    // The second-to-last character carries six signature bits (the last one only two): change it.
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === "A" ? "B" : "A"}${s.slice(-1)}`;
    assert.equal((await verifyStatement(flipped, jwk)).ok, false);
  });

  it("refuses alg confusion: none, HS256 keyed with the public key, RS256, and a key in the header", async () => {
    const payload = b64(canonicalize(statement(kid)));
    const none = `${b64(JSON.stringify({ alg: "none", typ: statementJwsType, kid }))}.${payload}.`;
    const r1 = await verifyStatement(none, jwk);
    assert.ok(!r1.ok && /not a compact JWS/.test(r1.reason), JSON.stringify(r1));
    const none2 = `${b64(JSON.stringify({ alg: "none", typ: statementJwsType, kid }))}.${payload}.AA`;
    const r2 = await verifyStatement(none2, jwk);
    assert.ok(!r2.ok && /alg "none" is refused/.test(r2.reason), JSON.stringify(r2));
    const hsHeader = b64(JSON.stringify({ alg: "HS256", typ: statementJwsType, kid }));
    const hsSig = createHmac("sha256", JSON.stringify(jwk))
      .update(`${hsHeader}.${payload}`)
      .digest("base64url");
    const r3 = await verifyStatement(`${hsHeader}.${payload}.${hsSig}`, jwk);
    assert.ok(!r3.ok && /alg "HS256" is refused/.test(r3.reason));
    const hsSig2 = createHmac("sha256", Buffer.from(jwk.x!, "base64url"))
      .update(`${hsHeader}.${payload}`)
      .digest("base64url");
    assert.equal((await verifyStatement(`${hsHeader}.${payload}.${hsSig2}`, jwk)).ok, false);
    const rs = `${b64(JSON.stringify({ alg: "RS256", typ: statementJwsType, kid }))}.${payload}.AA`;
    const r5 = await verifyStatement(rs, jwk);
    assert.ok(!r5.ok && /alg "RS256" is refused/.test(r5.reason));
    const embedded = await sign(canonicalize(statement(kid)), privateKey, { kid, jwk });
    const r4 = await verifyStatement(embedded, jwk);
    assert.ok(!r4.ok && /carries jwk/.test(r4.reason));
    const untyped = await sign(canonicalize(statement(kid)), privateKey, { kid, typ: "JWT" });
    assert.ok(!((await verifyStatement(untyped, jwk)) as { ok: boolean }).ok);
  });

  it("refuses validly signed payloads that are not a sound statement", async () => {
    const signed = (doc: unknown, text = canonicalize(doc)) => sign(text, privateKey, { kid });
    const doc = statement(kid);
    const pretty = await verifyStatement(await signed(doc, JSON.stringify(doc, null, 2)), jwk);
    assert.ok(!pretty.ok && /not canonical JSON/.test(pretty.reason));
    const notJson = await verifyStatement(await signed(null, "{not json"), jwk);
    assert.ok(!notJson.ok && /not JSON/.test(notJson.reason));
    const broken = structuredClone(doc);
    broken.entries[0].recordedAt = "2026-01-01";
    const chain = await verifyStatement(await signed(broken), jwk);
    assert.ok(
      !chain.ok && /entry 2 does not name the hash of the entry before it/.test(chain.reason),
    );
    const badTag = structuredClone(doc);
    badTag.entries[1].lanes[0].approved[0].tag = badTag.entries[1].lanes[1].approved[0].tag;
    const tag = await verifyStatement(await signed(badTag), jwk);
    assert.ok(!tag.ok && /tag of 1\.1\.3 on openai is not its digests' tag/.test(tag.reason));
    const nonString = structuredClone(doc) as unknown as {
      entries: { lanes: { approved: { tag: unknown }[] }[] }[];
    };
    nonString.entries[0].lanes[0].approved[0].tag = 42;
    assert.equal((await verifyStatement(await signed(nonString), jwk)).ok, false);
    const otherSigner = { ...doc, signer: { kid: "someone-else", development: false } };
    const signer = await verifyStatement(await signed(otherSigner), jwk);
    assert.ok(!signer.ok && /names signer someone-else/.test(signer.reason));
    const empty = await verifyStatement(await signed({ ...doc, entries: [] }), jwk);
    assert.ok(!empty.ok && /no entries/.test(empty.reason));
  });

  it("refuses garbage and huge tokens without throwing", async () => {
    for (const token of [
      "",
      "a.b",
      "a.b.c.d",
      "!!!.$$$.%%%",
      `${"A".repeat(10)}..`,
      42 as unknown as string,
    ])
      assert.equal((await verifyStatement(token, jwk)).ok, false, String(token));
    const huge = await verifyStatement(`${"A".repeat(2048)}.${"A".repeat(2048)}.AA`, jwk, {
      maxBytes: 1024,
    });
    assert.ok(!huge.ok && /too large/.test(huge.reason));
  });

  it("accepts only an Ed25519 public JWK as the verifying key", () => {
    assert.equal(publicKeyProblem(jwk), undefined);
    assert.match(publicKeyProblem(privateKey.export({ format: "jwk" }))!, /private key/);
    assert.match(publicKeyProblem({ kty: "oct", k: "AAAA" })!, /not an Ed25519/);
    assert.match(publicKeyProblem({ kty: "OKP", crv: "Ed25519", x: "short" })!, /base64url/);
    assert.match(publicKeyProblem("{}")!, /not a JWK object/);
  });

  it("detects a rewritten history between two statements; appending is not a rewrite", () => {
    const one = statement(kid, 1);
    const two = statement(kid, 2);
    assert.equal(historyRewrite(one, two), undefined);
    assert.match(historyRewrite(two, one)!, /fewer than the 2 recorded before/);
    const rewritten = structuredClone(two);
    rewritten.entries[0].lanes[0].approved = [];
    assert.match(historyRewrite(one, rewritten)!, /entry 1 differs/);
  });
});
