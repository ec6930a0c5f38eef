import assert from "node:assert/strict";
import { Readable } from "node:stream";
import fc from "fast-check";
import tar from "tar-stream";
import { buildArchives } from "../../../release/bundle/archives.js";
import { sortBundleFiles, type BundleFile } from "../../../contract-model/file-tree/bundle-file.js";

/** Read a tar back with tar-stream's extractor: the names, modes, times and bytes it holds. */
async function readTar(
  data: Buffer,
): Promise<{ name: string; mode: number; mtime: number; data: Buffer }[]> {
  const out: { name: string; mode: number; mtime: number; data: Buffer }[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c) => chunks.push(c as Buffer));
    stream.on("end", () => {
      out.push({
        name: header.name,
        mode: header.mode ?? 0,
        mtime: header.mtime?.getTime() ?? -1,
        data: Buffer.concat(chunks),
      });
      next();
    });
  });
  Readable.from([data]).pipe(extract);
  await done;
  return out;
}

const segment = fc
  .stringMatching(/^[a-zA-Z0-9äöüßéñ日本_.-]{1,40}$/)
  .filter((s) => s !== "." && s !== "..");
const filePath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join("/"));
const tree = fc
  .uniqueArray(
    fc.record({ path: filePath, data: fc.uint8Array({ maxLength: 2048 }), exec: fc.boolean() }),
    { selector: (f) => f.path, minLength: 1, maxLength: 25 },
  )
  // A file and a folder cannot share a path.
  .filter((files) => !files.some((a) => files.some((b) => b.path.startsWith(`${a.path}/`))))
  .map((files) =>
    files.map(
      (f): BundleFile => ({
        path: f.path,
        data: Buffer.from(f.data),
        mode: f.exec ? 0o755 : 0o644,
      }),
    ),
  );

describe("release/bundle: archive properties (L5)", () => {
  it("L5: for any tree, the input order never changes a byte of tar, tar.gz or zip", async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.integer(), async (files, seed) => {
        const shuffled = [...files].sort(
          (a, b) => ((a.path.length * 31 + seed) % 7) - ((b.path.length * 31 + seed) % 7),
        );
        const a = await buildArchives(files);
        const b = await buildArchives(shuffled.reverse());
        assert.deepEqual(a.sha256, b.sha256);
      }),
      { numRuns: 40 },
    );
  });

  it(
    "L5: for any tree, the tar reads back as exactly the sorted files with " +
      "their modes and the fixed time",
    async () => {
      await fc.assert(
        fc.asyncProperty(tree, async (files) => {
          const back = await readTar((await buildArchives(files)).tar);
          const want = sortBundleFiles(files);
          assert.deepEqual(
            back.map((e) => e.name),
            want.map((f) => f.path),
          );
          assert.deepEqual(
            back.map((e) => e.mode),
            want.map((f) => f.mode),
          );
          assert.ok(back.every((e, i) => e.data.equals(want[i].data) && e.mtime === 315532800000));
        }),
        { numRuns: 40 },
      );
    },
  );
});
