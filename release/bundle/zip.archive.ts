import { ZipArchive } from "archiver";
import { sortBundleFiles, type BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { fixedArchiveTime } from "./fixed-time.js";

/**
 * A ZIP of `files`, byte-identical for equal input: entries appended from buffers in UTF-8 path
 * order with a fixed `Date` (a number would silently become "now") and the mode from the file list.
 * `file()`/`directory()` are avoided on purpose: they follow the disk and reorder entries.
 */
export async function buildZip(
  files: readonly BundleFile[],
  date: Date = fixedArchiveTime(),
): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 9 }, statConcurrency: 1 });
  const chunks: Buffer[] = [];
  zip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.on("warning", reject);
  });
  for (const file of sortBundleFiles(files))
    zip.append(file.data, { name: file.path, date, mode: file.mode });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}
