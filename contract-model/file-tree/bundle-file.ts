/**
 * One regular file of a bundle: a posix path relative to the bundle root, its bytes and its archive
 * mode.
 */
export interface BundleFile {
  /** Posix path inside the archive, no leading slash, no `.`/`..` segments. */
  path: string;
  data: Buffer;
  /** 0o644 or 0o755; decided by the bundle's own rules, never read from the disk. */
  mode: 0o644 | 0o755;
}

/** Order by the UTF-8 bytes of the path (Buffer.compare), the one order every archive uses. */
export function sortBundleFiles(files: readonly BundleFile[]): BundleFile[] {
  return [...files].sort((a, b) =>
    Buffer.compare(Buffer.from(a.path, "utf8"), Buffer.from(b.path, "utf8")),
  );
}
