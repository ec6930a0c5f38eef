import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { readArchive } from "../../../release/import/read-archive.js";
import { runCliMeasured } from "../../support/peak-rss.js";
import { repoRoot } from "../../support/temp-project.js";
import { useProjectCopies } from "../support/temp-project.js";
import { treeDigest } from "../support/tree-digest.js";

const MB = 1024 * 1024;
const fixture = path.join(repoRoot, "test/fixtures/imported-release/skillpilot-coach-1.1.2.tgz");

/** A tar header the way a hostile packer may write it; `data` is what follows it. */
interface RawEntry {
  header: Partial<tar.Header> & { name: string };
  data?: Buffer | string;
}

/** Pack entries with tar-stream, which writes names (`..`, `/abs`, PAX records) as given. */
async function packTar(entries: RawEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  for (const e of entries) pack.entry(e.header, e.data ?? "");
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A ustar header of a regular file that declares `size` bytes (whatever follows it). */
async function fileHeader(name: string, size: number): Promise<Buffer> {
  const block = Buffer.from((await packTar([{ header: { name } }])).subarray(0, 512));
  block.write(`${size.toString(8).padStart(11, "0")}\0`, 124, "ascii");
  block.fill(" ", 148, 156);
  const sum = block.reduce((a, b) => a + b, 0);
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

/**
 * A gzip bomb: the tar header of one file declaring `declaredMb` MB, then `zerosMb` MB of zeros.
 * Built as concatenated gzip members (each 1 MB of zeros compresses to about 1 KB), so the test
 * never holds the expanded bytes and the file stays a few hundred KB.
 */
async function bomb(
  entries: { name: string; declaredMb: number }[],
  zerosMb: number,
): Promise<Buffer> {
  const oneMb = gzipSync(Buffer.alloc(MB), { level: 9 });
  const members: Buffer[] = [];
  for (const e of entries) {
    members.push(gzipSync(await fileHeader(e.name, e.declaredMb * MB)));
    for (let i = 0; i < Math.min(zerosMb, e.declaredMb); i++) members.push(oneMb);
  }
  return Buffer.concat(members);
}

/** The fixture bundle's files plus `extra`, repacked as a plain tar.gz. */
async function fixturePlus(extra: RawEntry[]): Promise<Buffer> {
  const files = await readArchive(await readFile(fixture), "tar.gz");
  return gzipSync(
    await packTar([
      ...files
        .filter((f) => f.path !== "SHA256SUMS")
        .map((f) => ({ header: { name: f.path, size: f.data.length }, data: f.data })),
      ...extra,
    ]),
  );
}

describe("release/import: hostile archives are refused at their caps, as IMPORT_INPUT_INVALID (issue #32 item 1a)", function () {
  this.timeout(120_000);
  const root = useProjectCopies();
  // The hostile bundles live outside the project, so refusals running side by side each see the
  // project's tree unchanged.
  let incoming: string;
  before(async () => {
    incoming = await mkdtemp(path.join(tmpdir(), "sp-hostile-bundles-"));
  });
  after(() => rm(incoming, { recursive: true, force: true }));

  /** `record-published VERSION --import --bundle FILE` in the project, with `extra` flags. */
  const importBundle = (file: string, version = "1.1.2", ...extra: string[]) =>
    runCliMeasured([
      "-C",
      root(),
      "record-published",
      version,
      "--import",
      "--bundle",
      file,
      "--published-at",
      "2026-10-20",
      ...extra,
    ]);

  /** Import `bytes` as bundle `name` and assert exit 2, the rule, the message, no stack, no write. */
  async function refused(name: string, bytes: Buffer, message: RegExp, ...extra: string[]) {
    const file = path.join(incoming, name);
    await writeFile(file, bytes);
    const before = await treeDigest(root());
    const run = await importBundle(file, "1.1.2", "--format", "json", ...extra);
    assert.equal(run.code, 2, `${name}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /\n\s+at /, `${name}: no stack`);
    const report = JSON.parse(run.stdout) as { diagnostics: { ruleId: string; message: string }[] };
    assert.deepEqual(
      report.diagnostics.map((d) => d.ruleId),
      ["IMPORT_INPUT_INVALID"],
      name,
    );
    assert.match(report.diagnostics[0].message, message, name);
    assert.equal(await treeDigest(root()), before, `${name}: a refused import writes nothing`);
    return run;
  }

  it("refuses a 2 GiB one-file gzip bomb from its header, at a fraction of the memory", async () => {
    const bytes = await bomb([{ name: "package/tools.json", declaredMb: 2048 }], 300);
    assert.ok(bytes.length < 1 * MB, `the bomb is ${bytes.length} bytes on disk`);
    const run = await refused(
      "bomb.tgz",
      bytes,
      /bomb\.tgz: package\/tools\.json expands beyond 32 MB.*--max-entry-mb/,
    );
    assert.ok(run.peakMb < 200, `peak RSS ${run.peakMb} MB`);
  });

  it("refuses many files, each under the per-file cap, once together they expand beyond the total cap", async () => {
    const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.bin`, declaredMb: 30 }));
    const run = await refused(
      "many.tgz",
      await bomb(files, 30),
      /many\.tgz expands beyond 128 MB.*--max-expanded-mb/,
    );
    assert.ok(run.peakMb < 350, `peak RSS ${run.peakMb} MB (cap 128 MB held at most)`);
    const lowered = await refused(
      "many.tgz",
      await bomb(files, 30),
      /many\.tgz expands beyond 40 MB/,
      "--max-expanded-mb",
      "40",
    );
    assert.ok(lowered.peakMb < 200, `peak RSS ${lowered.peakMb} MB`);
  });

  it("refuses a small tar followed by hundreds of MB of zeros, counting the expanded stream itself", async () => {
    const small = gzipSync(await packTar([{ header: { name: "a.txt" }, data: "a" }]));
    const zeros = gzipSync(Buffer.alloc(MB), { level: 9 });
    const run = await refused(
      "padded.tgz",
      Buffer.concat([small, ...Array.from({ length: 400 }, () => zeros)]),
      /padded\.tgz expands beyond 128 MB/,
    );
    assert.ok(run.peakMb < 200, `peak RSS ${run.peakMb} MB`);
  });

  it("refuses path tricks, links, duplicates and truncated or lying archives, each by name", async () => {
    const cases: [string, RawEntry[], RegExp][] = [
      [
        "dotdot",
        [{ header: { name: "../evil.txt" }, data: "x" }],
        /"\.\.\/evil\.txt": not a relative path/,
      ],
      ["inner-dotdot", [{ header: { name: "package/../../x" }, data: "x" }], /not a relative path/],
      [
        "absolute",
        [{ header: { name: "/etc/cron.d/x" }, data: "x" }],
        /"\/etc\/cron\.d\/x": not a relative path/,
      ],
      [
        "pax-path",
        [{ header: { name: "ok.txt", pax: { path: "../../x" } }, data: "x" }],
        /"\.\.\/\.\.\/x": not a relative path/,
      ],
      ["backslash", [{ header: { name: "package\\..\\x" }, data: "x" }], /not a relative path/],
      ["drive", [{ header: { name: "C:/x" }, data: "x" }], /"C:\/x": not a relative path/],
      ["control", [{ header: { name: "a\u0007b" }, data: "x" }], /not a relative path/],
      [
        "long-name",
        [{ header: { name: `${"a/".repeat(80)}../../../x` }, data: "x" }],
        /not a relative path/,
      ],
      ["dir-dotdot", [{ header: { name: "../up", type: "directory" } }], /not a relative path/],
      [
        "symlink",
        [{ header: { name: "link", type: "symlink", linkname: "/etc/passwd" } }],
        /link: a symlink entry/,
      ],
      [
        "duplicate",
        [
          { header: { name: "package/a.json" }, data: "1" },
          { header: { name: "./package//a.json" }, data: "2" },
        ],
        /package\/a\.json is in the archive twice/,
      ],
    ];
    const whole = await packTar([{ header: { name: "a.bin" }, data: Buffer.alloc(10_000, 7) }]);
    const gz = gzipSync(whole);
    const liar = Buffer.concat([await fileHeader("a.bin", 20 * MB), Buffer.alloc(512)]);
    const bundles: [string, Buffer, RegExp][] = [
      ...(await Promise.all(
        cases.map(
          async ([name, entries, message]): Promise<[string, Buffer, RegExp]> => [
            `${name}.tgz`,
            gzipSync(await packTar(entries)),
            message,
          ],
        ),
      )),
      [
        "cut-tar.tgz",
        gzipSync(whole.subarray(0, 3000)),
        /not a tar archive \(Unexpected end of data\)/,
      ],
      ["cut-tar.tar", whole.subarray(0, 3000), /not a tar archive \(Unexpected end of data\)/],
      [
        "cut-gzip.tgz",
        gz.subarray(0, gz.length - 20),
        /not a gzip stream \(unexpected end of file\)/,
      ],
      ["liar.tgz", gzipSync(liar), /Unexpected end of data/],
      ["empty.tgz", gzipSync(Buffer.alloc(0)), /not a tar archive \(empty\)/],
    ];
    // Two at a time: each is a CLI process, and none writes, so they may share the project.
    for (let i = 0; i < bundles.length; i += 2)
      await Promise.all(bundles.slice(i, i + 2).map((b) => refused(...b)));
  });

  it("caps the bundle file itself and honours lowered caps, while the real bundle with a 2 MB file still imports", async () => {
    await refused(
      "random.tgz",
      Buffer.alloc(2 * MB + 1, 1),
      /random\.tgz is larger than 1 MB; it was not read.*--max-expanded-mb/,
      "--max-expanded-mb",
      "1",
    );
    const big = await fixturePlus([
      { header: { name: "package/assets/big.bin", size: 2 * MB }, data: Buffer.alloc(2 * MB, 3) },
    ]);
    await refused(
      "big.tgz",
      big,
      /big\.tgz: package\/assets\/big\.bin expands beyond 1 MB/,
      "--max-entry-mb",
      "1",
    );
    const file = path.join(incoming, "big.tgz");
    const accepted = await importBundle(file);
    assert.equal(accepted.code, 0, accepted.stdout + accepted.stderr);
    assert.match(accepted.stdout, /imported 1\.1\.2 \(big\.tgz\)/);
    for (const bad of ["0", "-3", "1.5", "lots"]) {
      const usage = await importBundle(file, "1.1.3", "--max-entry-mb", bad);
      assert.equal(usage.code, 2, bad);
      assert.match(usage.stderr, /--max-entry-mb.*expected a whole number from 1 up/, bad);
    }
  });
});
