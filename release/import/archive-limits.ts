/** How much an archive may expand to while it is read: the whole tar stream and each file. */
export interface ArchiveLimits {
  /** Bytes of the uncompressed tar stream (headers, files, padding). */
  maxExpandedBytes: number;
  /** Bytes of any one file inside it. */
  maxEntryBytes: number;
  /** Entries (files and folders) it may hold. */
  maxEntries: number;
}

const MB = 1024 * 1024;

/**
 * Sized for release bundles (a manifest, a tools list, skills and a few UI pages: kilobytes to a
 * few megabytes), with room to spare; a bundle above them is refused before it is held in memory.
 */
export const defaultArchiveLimits: ArchiveLimits = {
  maxExpandedBytes: 128 * MB,
  maxEntryBytes: 32 * MB,
  maxEntries: 20_000,
};

/** Bytes as whole megabytes, for messages and flags. */
export const megabytes = (bytes: number): number => Math.round(bytes / MB);
