import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import { fixedArchiveTime } from "./fixed-time.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import { buildTar, gzipDeterministic } from "./tar.archive.js";
import { buildZip } from "./zip.archive.js";

/** The three archive forms of one package tree and their hashes. */
export interface PackageArchives {
  tar: Buffer;
  tarGz: Buffer;
  zip: Buffer;
  sha256: { tar: string; tarGz: string; zip: string };
}

/** Build the USTAR tar, its gzip and the ZIP of one tree, all with the same fixed time. */
export async function buildArchives(
  files: readonly BundleFile[],
  time: Date = fixedArchiveTime(),
): Promise<PackageArchives> {
  const tar = await buildTar(files, time);
  const tarGz = gzipDeterministic(tar);
  const zip = await buildZip(files, time);
  return {
    tar,
    tarGz,
    zip,
    sha256: { tar: sha256Hex(tar), tarGz: sha256Hex(tarGz), zip: sha256Hex(zip) },
  };
}
