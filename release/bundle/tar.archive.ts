import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { sortBundleFiles, type BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { fixedArchiveTime } from "./fixed-time.js";

/**
 * A USTAR tar of `files`, byte-identical for equal input whatever the host: entries sorted by UTF-8
 * path, fixed mtime, uid/gid 0, empty owner names, mode from the file list. Paths over 100 bytes
 * use the USTAR prefix field; paths that cannot (non-ASCII, or no split fits) get a PAX `path`
 * record — both as tar-stream encodes them.
 */
export async function buildTar(
  files: readonly BundleFile[],
  mtime: Date = fixedArchiveTime(),
): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    pack.on("end", resolve);
    pack.on("error", reject);
  });
  for (const file of sortBundleFiles(files)) {
    // One entry at a time: tar-stream queues, but awaiting each keeps memory flat and order
    // obvious.
    await new Promise<void>((resolve, reject) =>
      pack.entry(
        {
          name: file.path,
          type: "file",
          size: file.data.length,
          mode: file.mode,
          mtime,
          uid: 0,
          gid: 0,
          uname: "",
          gname: "",
        },
        file.data,
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** gzip level 9 with the header's OS byte set to 0xff ("unknown") so the host OS never leaks in. */
export function gzipDeterministic(data: Buffer): Buffer {
  const out = gzipSync(data, { level: 9 });
  out[9] = 0xff;
  return out;
}
