import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CanonicalJsonError,
  canonicalize,
} from "../../../evolution/definition-tags/canonical-json.js";

/** The IEEE-754 double whose bits are these 16 hex digits. */
function double(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("evolution/definition-tags: RFC 8785 canonical JSON", () => {
  it("serialises the RFC 8785 §3.2.2 sample (members sorted as §3.2.3 requires)", () => {
    const input =
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50,\n              2e-3, 0.000000000000000000000000001],\n' +
      '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n' +
      '  "literals": [null, true, false]\n}';
    assert.equal(
      canonicalize(JSON.parse(input)),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("writes every number of RFC 8785 Appendix B as the table does", () => {
    const table: [string, string][] = [
      ["0000000000000000", "0"],
      ["8000000000000000", "0"],
      ["0000000000000001", "5e-324"],
      ["8000000000000001", "-5e-324"],
      ["7fefffffffffffff", "1.7976931348623157e+308"],
      ["ffefffffffffffff", "-1.7976931348623157e+308"],
      ["4340000000000000", "9007199254740992"],
      ["c340000000000000", "-9007199254740992"],
      ["4430000000000000", "295147905179352830000"],
      ["44b52d02c7e14af5", "9.999999999999997e+22"],
      ["44b52d02c7e14af6", "1e+23"],
      ["44b52d02c7e14af7", "1.0000000000000001e+23"],
      ["444b1ae4d6e2ef4e", "999999999999999700000"],
      ["444b1ae4d6e2ef4f", "999999999999999900000"],
      ["444b1ae4d6e2ef50", "1e+21"],
      ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
      ["3eb0c6f7a0b5ed8d", "0.000001"],
      ["41b3de4355555553", "333333333.3333332"],
      ["41b3de4355555554", "333333333.33333325"],
      ["41b3de4355555555", "333333333.3333333"],
      ["41b3de4355555556", "333333333.3333334"],
      ["41b3de4355555557", "333333333.33333343"],
      ["becbf647612f3696", "-0.0000033333333333333333"],
      ["43143ff3c1cb0959", "1424953923781206.2"],
    ];
    for (const [hex, text] of table) assert.equal(canonicalize(double(hex)), text, hex);
    for (const hex of ["7fffffffffffffff", "7ff0000000000000"])
      assert.throws(() => canonicalize(double(hex)), CanonicalJsonError, hex);
    assert.throws(() => canonicalize([Number.NEGATIVE_INFINITY]), /not a JSON number/);
  });

  it("sorts members by UTF-16 code units, not code points (RFC 8785 §3.2.3)", () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",' +
        '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",' +
        '"\\u00f6":"Latin Small Letter O With Diaeresis","</script>":"Browser Challenge"}',
    );
    // "\r" (U+000D) first, the emoji (surrogates D83D DE00) before U+FB33 though its code point
    // is higher: UTF-16 code units, not code points.
    assert.equal(
      canonicalize(input),
      '{"\\r":"Carriage Return","1":"One","</script>":"Browser Challenge",' +
        '"\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign",' +
        '"😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("escapes strings as ECMAScript does: short escapes, other controls as lowercase \\u00xx", () => {
    assert.equal(
      canonicalize('\b\t\n\f\r\u0000\u001f\u007f"\\/é😀'),
      '"\\b\\t\\n\\f\\r\\u0000\\u001f\u007f\\"\\\\/é😀"',
    );
    assert.equal(canonicalize({ b: [], a: {} }), '{"a":{},"b":[]}');
  });

  it("refuses what I-JSON cannot carry instead of guessing: lone surrogates, non-JSON values", () => {
    assert.throws(() => canonicalize("\ud800"), /lone surrogate/);
    assert.throws(() => canonicalize({ "\udc00x": 1 }), /lone surrogate/);
    assert.throws(() => canonicalize("a\ude00"), /lone surrogate/);
    assert.throws(() => canonicalize(10n), /bigint has no JSON form/);
    assert.throws(() => canonicalize(() => 1), /function has no JSON form/);
    assert.throws(() => canonicalize(new Date(0)), /only plain objects/);
    assert.throws(() => canonicalize(new Map()), /only plain objects/);
    assert.throws(
      () => canonicalize([1, undefined]),
      (e: CanonicalJsonError) => e.pointer === "/1",
    );
    assert.throws(() => canonicalize(undefined), /undefined has no JSON form/);
    const cyclic: Record<string, unknown> = { a: {} };
    (cyclic.a as Record<string, unknown>).back = cyclic;
    assert.throws(
      () => canonicalize(cyclic),
      (e: CanonicalJsonError) => /cycle/.test(e.message) && e.pointer === "/a/back",
    );
  });

  it("leaves out members whose value is undefined, as the wire form does", () => {
    assert.equal(canonicalize({ a: 1, b: undefined }), '{"a":1}');
  });

  it("keeps a __proto__ member of parsed JSON as data", () => {
    assert.equal(
      canonicalize(JSON.parse('{"__proto__":{"x":1},"a":2}')),
      '{"__proto__":{"x":1},"a":2}',
    );
  });

  it("ends hostile nesting and oversize output with an error, never a crashed stack", () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.throws(
      () => canonicalize(deep),
      (e: unknown) => e instanceof CanonicalJsonError && /deeper than 256/.test(e.message),
    );
    assert.throws(
      () => canonicalize({ a: "x".repeat(1000) }, { maxLength: 100 }),
      /longer than 100/,
    );
  });

  it("canonicalises large inputs in linear time", () => {
    const big = {
      items: Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `n${i}`, ok: i % 2 === 0 })),
      text: "y".repeat(5_000_000),
    };
    const started = Date.now();
    const text = canonicalize(big);
    assert.ok(text.length > 7_000_000);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });

  it("is a fixed point of parse: equal data, reordered members, equal bytes (property)", () => {
    const shuffle = (v: unknown, seed: number): unknown => {
      if (Array.isArray(v)) return v.map((x) => shuffle(x, seed));
      if (v !== null && typeof v === "object") {
        const entries = Object.entries(v);
        entries.sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7));
        return Object.fromEntries(entries.reverse().map(([k, x]) => [k, shuffle(x, seed)]));
      }
      return v;
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer(), (value, seed) => {
        const text = canonicalize(value);
        assert.equal(canonicalize(JSON.parse(text)), text);
        assert.equal(canonicalize(shuffle(value, seed)), text);
        assert.equal(canonicalize(JSON.parse(JSON.stringify(value))), text);
      }),
      { numRuns: 300 },
    );
  });
});
