import assert from "node:assert/strict";
import { TraceRedactor } from "../../contract-model/trace/trace-redaction.js";

const jwt =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsZWFybmVyIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU";
const sid = "sps_Q2xhc3NpY1Nlc3Npb25JZEZvclRlc3Rz";

describe("contract-model/trace: redaction finds tokens and session ids inside longer strings (issue #32 item 2)", () => {
  const redactor = () =>
    new TraceRedactor({
      fingerprint: (s) => (s === sid ? "00112233aabbccdd" : "ffffffffffffffff"),
      sessionField: "learningSessionId",
    });
  const call = (args: Record<string, unknown>) => ({
    jsonrpc: "2.0" as const,
    id: 1,
    method: "tools/call",
    params: { name: "x", arguments: args },
  });

  it("replaces a JWT inside a URL, a header value or a sentence, and keeps the rest", () => {
    const out = JSON.stringify(
      redactor().redact(
        call({
          url: `https://host.example/cb?token=${jwt}&x=1`,
          header: `Bearer ${jwt}`,
          exact: jwt,
        }),
        "client",
      ),
    );
    assert.ok(!out.includes("eyJ"), out);
    assert.match(out, /"url":"https:\/\/host\.example\/cb\?token=redacted:token&x=1"/);
    assert.match(out, /"header":"redacted:token"/);
    assert.match(out, /"exact":"redacted:token"/);
  });

  it("replaces an sps_ id inside a longer string by the same fingerprint as the field itself", () => {
    const r = redactor();
    const first = JSON.stringify(r.redact(call({ note: `resume:${sid}` }), "client"));
    const field = JSON.stringify(r.redact(call({ learningSessionId: sid }), "client"));
    assert.ok(!first.includes(sid) && !field.includes(sid));
    assert.match(first, /"note":"resume:redacted:session:00112233aabbccdd"/);
    assert.match(field, /"learningSessionId":"redacted:session:00112233aabbccdd"/);
    // Not a session id: a longer word that merely contains the prefix.
    const other = JSON.stringify(r.redact(call({ code: "gsps_short" }), "client"));
    assert.match(other, /"code":"gsps_short"/);
  });

  it("replaces an sps_ id glued to a word, a token used as a key, a secret of the traffic and configured token shapes", () => {
    const r = new TraceRedactor({
      fingerprint: () => "00112233aabbccdd",
      tokenPatterns: [/sk_live_[A-Za-z0-9]+/g],
    });
    r.addSecret("opaque-access-token-0123");
    r.addSecret("short");
    const out = JSON.stringify(
      r.redact(
        call({
          glued: `learner_${sid}`,
          prefixed: `x${sid}`,
          [`k-${jwt}`]: 1,
          auth: "t=opaque-access-token-0123;",
          exactSecret: "opaque-access-token-0123",
          key: "key:sk_live_abcdef123456",
          word: "short",
        }),
        "client",
      ),
    );
    assert.ok(!out.includes(sid) && !out.includes("eyJ") && !out.includes("opaque-access"), out);
    assert.match(out, /"glued":"learner_redacted:session:00112233aabbccdd"/);
    assert.match(out, /"prefixed":"xredacted:session:00112233aabbccdd"/);
    assert.match(out, /"k-redacted:token":1/);
    assert.match(out, /"auth":"t=redacted:token;"/);
    assert.match(out, /"exactSecret":"redacted:token"/);
    assert.match(out, /"key":"key:redacted:token"/);
    // A secret under 8 characters would match ordinary words: it is not searched for.
    assert.match(out, /"word":"short"/);
  });
});
