/**
 * One way to alter a minted value, named by what it does (the names are known before the value is
 * minted, so a suite can declare one test per mutation).
 */
export interface Mutation {
  label: string;
  apply(value: string): string;
}

/** `text` with bit `bit` of character `index` flipped. */
export function flipChar(text: string, index: number, bit = 0): string {
  return (
    text.slice(0, index) +
    String.fromCharCode(text.charCodeAt(index) ^ (1 << bit)) +
    text.slice(index + 1)
  );
}

/** The canonical base64url of `bytes` with bit `index % 8` of byte `index` flipped. */
function flipByte(bytes: Buffer, index: number): string {
  const copy = Buffer.from(bytes);
  copy[index] ^= 1 << (index % 8);
  return copy.toString("base64url");
}

/** Where in a run of bytes a flip lands: its first, middle and last byte. */
const positions = [
  ["first", (from: number) => from],
  ["middle", (from: number, to: number) => Math.floor((from + to - 1) / 2)],
  ["last", (_from: number, to: number) => to - 1],
] as const;

/** Bit flips at the first, middle and last byte of `part`, whose range `range` finds. */
function flipsIn(
  part: string,
  range: (value: string) => { bytes: Buffer; from: number; to: number; rebuild(b: string): string },
): Mutation[] {
  return positions.map(([where, at]) => ({
    label: `bit flip in the ${where} byte of the ${part}`,
    apply(value) {
      const r = range(value);
      return r.rebuild(flipByte(r.bytes, at(r.from, r.to)));
    },
  }));
}

const IV = 12;
const TAG = 16;

/** The sealed bytes of `<prefix>.<kid>.<sealed>` and a way back to a token around new bytes. */
function sealedPart(token: string) {
  const [prefix, kid, text] = token.split(".");
  const head = `${prefix}.${kid}.`;
  return { prefix, kid, text, head, bytes: Buffer.from(text, "base64url") };
}

const sealedRange = (from: (n: number) => number, to: (n: number) => number) => (token: string) => {
  const { head, bytes } = sealedPart(token);
  return {
    bytes,
    from: from(bytes.length),
    to: to(bytes.length),
    rebuild: (b: string) => head + b,
  };
};

/**
 * Mutations of a sealed token `<prefix>.<kid>.<base64url(iv 12 | ciphertext | tag 16)>` (a
 * capability or an option payload): bit flips in every position class (the prefix, a separator and
 * the kid of the header; first, middle and last byte of the IV, the ciphertext and the tag),
 * truncations (a character, a byte, the tag down to the 4 bytes Node accepts by default, the whole
 * tag, below the contract's minimum length, the kid) and extensions (a byte, a character, a
 * segment, padding, beyond the contract's maximum length).
 */
export const sealedTokenMutations: readonly Mutation[] = [
  { label: "bit flip in the prefix", apply: (t) => flipChar(t, 0) },
  { label: "bit flip in the first separator", apply: (t) => flipChar(t, 4) },
  { label: "bit flip in the kid", apply: (t) => flipChar(t, 5) },
  ...flipsIn(
    "IV",
    sealedRange(
      () => 0,
      () => IV,
    ),
  ),
  ...flipsIn(
    "ciphertext",
    sealedRange(
      () => IV,
      (n) => n - TAG,
    ),
  ),
  ...flipsIn(
    "tag",
    sealedRange(
      (n) => n - TAG,
      (n) => n,
    ),
  ),
  { label: "truncated by one character", apply: (t) => t.slice(0, -1) },
  {
    label: "truncated by one byte",
    apply: (t) => sealedPart(t).head + sealedPart(t).bytes.subarray(0, -1).toString("base64url"),
  },
  {
    label: "tag truncated to 4 bytes",
    apply: (t) => sealedPart(t).head + sealedPart(t).bytes.subarray(0, -12).toString("base64url"),
  },
  {
    label: "tag removed",
    apply: (t) => sealedPart(t).head + sealedPart(t).bytes.subarray(0, -TAG).toString("base64url"),
  },
  {
    label: "sealed part cut below 32 characters",
    apply: (t) => sealedPart(t).head + sealedPart(t).text.slice(0, 31),
  },
  { label: "kid removed", apply: (t) => `${sealedPart(t).prefix}.${sealedPart(t).text}` },
  {
    label: "extended by one byte",
    apply: (t) =>
      sealedPart(t).head + Buffer.concat([sealedPart(t).bytes, Buffer.of(0)]).toString("base64url"),
  },
  { label: "extended by one character", apply: (t) => `${t}A` },
  { label: "extended by a segment", apply: (t) => `${t}.A` },
  { label: "extended by base64 padding", apply: (t) => `${t}=` },
  {
    label: "extended beyond 4096 characters",
    apply: (t) => t + "A".repeat(4097 - sealedPart(t).text.length),
  },
];

/** The 24 random bytes of a session id `sps_<base64url>`. */
const sessionRange = (sid: string) => {
  const bytes = Buffer.from(sid.slice(4), "base64url");
  return { bytes, from: 0, to: bytes.length, rebuild: (b: string) => `sps_${b}` };
};

/**
 * Mutations of a session id `sps_<base64url of 24 random bytes>`: bit flips in the prefix and its
 * separator and at the first, middle and last random byte, a letter in another case, truncations
 * (a character, down to the contract's 22 characters and below it, to the bare prefix) and
 * extensions (a character, up to the contract's 64 characters and beyond, padding, whitespace).
 */
export const sessionIdMutations: readonly Mutation[] = [
  { label: "bit flip in the prefix", apply: (s) => flipChar(s, 0) },
  { label: "bit flip in the separator", apply: (s) => flipChar(s, 3) },
  ...flipsIn("random part", sessionRange),
  {
    label: "one letter in another case",
    apply(s) {
      const at = [...s].findIndex((c, i) => i > 3 && /[a-zA-Z]/.test(c));
      const c = s[at];
      return (
        s.slice(0, at) +
        (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) +
        s.slice(at + 1)
      );
    },
  },
  { label: "truncated by one character", apply: (s) => s.slice(0, -1) },
  { label: "truncated to 22 characters", apply: (s) => s.slice(0, 4 + 22) },
  { label: "truncated to 21 characters", apply: (s) => s.slice(0, 4 + 21) },
  { label: "truncated to the prefix", apply: () => "sps_" },
  { label: "extended by one character", apply: (s) => `${s}A` },
  { label: "extended to 64 characters", apply: (s) => s.padEnd(4 + 64, "A") },
  { label: "extended to 65 characters", apply: (s) => s.padEnd(4 + 65, "A") },
  { label: "extended by base64 padding", apply: (s) => `${s}=` },
  { label: "a leading space", apply: (s) => ` ${s}` },
];

/** The segments of the start page's cookie `<kid>.<iv>.<ciphertext | tag>`. */
function cookieParts(cookie: string) {
  const [kid, ivText, dataText] = cookie.split(".");
  return {
    kid,
    ivText,
    dataText,
    iv: Buffer.from(ivText, "base64url"),
    data: Buffer.from(dataText, "base64url"),
  };
}

const cookieIv = (cookie: string) => {
  const { kid, iv, dataText } = cookieParts(cookie);
  return { bytes: iv, from: 0, to: iv.length, rebuild: (b: string) => `${kid}.${b}.${dataText}` };
};
const cookieData = (from: (n: number) => number, to: (n: number) => number) => (cookie: string) => {
  const { kid, ivText, data } = cookieParts(cookie);
  return {
    bytes: data,
    from: from(data.length),
    to: to(data.length),
    rebuild: (b: string) => `${kid}.${ivText}.${b}`,
  };
};
const withData = (cookie: string, edit: (data: Buffer) => Buffer) => {
  const { kid, ivText, data } = cookieParts(cookie);
  return `${kid}.${ivText}.${edit(data).toString("base64url")}`;
};

/**
 * Mutations of the start page's sealed cookie `<kid>.<base64url iv 12>.<base64url ciphertext | tag
 * 16>`: bit flips in the kid, a separator and at the first, middle and last byte of the IV, the
 * ciphertext and the tag; truncations (a character, a byte, the tag to 4 bytes, the IV, a segment)
 * and extensions (a byte, a character, characters the base64 decoder skips, a segment, padding).
 */
export const sealedCookieMutations: readonly Mutation[] = [
  { label: "bit flip in the kid", apply: (c) => flipChar(c, 0) },
  { label: "bit flip in a separator", apply: (c) => flipChar(c, cookieParts(c).kid.length) },
  ...flipsIn("IV", cookieIv),
  ...flipsIn(
    "ciphertext",
    cookieData(
      () => 0,
      (n) => n - TAG,
    ),
  ),
  ...flipsIn(
    "tag",
    cookieData(
      (n) => n - TAG,
      (n) => n,
    ),
  ),
  { label: "truncated by one character", apply: (c) => c.slice(0, -1) },
  { label: "truncated by one byte", apply: (c) => withData(c, (d) => d.subarray(0, -1)) },
  { label: "tag truncated to 4 bytes", apply: (c) => withData(c, (d) => d.subarray(0, -12)) },
  {
    label: "IV truncated by one byte",
    apply(c) {
      const { kid, iv, dataText } = cookieParts(c);
      return `${kid}.${iv.subarray(0, -1).toString("base64url")}.${dataText}`;
    },
  },
  { label: "IV segment removed", apply: (c) => `${cookieParts(c).kid}.${cookieParts(c).dataText}` },
  {
    label: "extended by one byte",
    apply: (c) => withData(c, (d) => Buffer.concat([d, Buffer.of(0)])),
  },
  { label: "extended by one character", apply: (c) => `${c}A` },
  { label: "extended by characters the base64 decoder skips", apply: (c) => `${c}!!` },
  { label: "extended by a segment", apply: (c) => `${c}.A` },
  { label: "extended by base64 padding", apply: (c) => `${c}==` },
];
