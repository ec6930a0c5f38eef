import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { archiveEntryPath } from "./archive-entry-path.js";
import { type ArchiveLimits, defaultArchiveLimits, megabytes } from "./archive-limits.js";

/** One regular file of an archive: its normalized posix path and its bytes. */
export interface ArchiveFile {
  path: string;
  data: Buffer;
}

/** Thrown for bytes that are not a readable archive, or an archive holding what none may hold. */
export class ArchiveError extends Error {
  override name = "ArchiveError";
  constructor(
    message: string,
    /** Set when a size cap, not a malformed byte, stopped the read. */
    readonly beyond?: { cap: "expanded" | "entry"; bytes: number; path?: string },
  ) {
    super(message);
  }
}

/** The archive kinds an install bundle may come as, told by its file name. */
export type ArchiveKind = "tar" | "tar.gz";

/** `tar.gz` for `.tar.gz`/`.tgz`, `tar` for `.tar`; undefined for any other name. */
export function archiveKind(fileName: string): ArchiveKind | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) return "tar.gz";
  if (lower.endsWith(".tar")) return "tar";
  return undefined;
}

/** The bytes of a buffer in slices, so a plain tar streams like a gunzipped one. */
function* slices(data: Buffer, size = 64 * 1024): Generator<Buffer> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

/**
 * Every regular file of a tar (gzip-compressed or not), in archive order, read as a stream: the
 * archive is decompressed chunk by chunk and refused as soon as it expands beyond
 * `limits.maxExpandedBytes`, a file declares more than `limits.maxEntryBytes` or there are more
 * than `limits.maxEntries` entries — so a compression bomb costs at most the caps in memory.
 * Directories are skipped; links, devices and FIFOs, paths that are absolute, climb with `..`,
 * use backslashes, drive letters or control characters (whether in the header, a PAX record or a
 * GNU long name), a path given twice, and truncated or corrupt bytes are refused: an archive an
 * importer cannot read exactly is not read at all. Every refusal is an {@link ArchiveError}.
 */
export function readArchive(
  data: Buffer,
  kind: ArchiveKind,
  limits: ArchiveLimits = defaultArchiveLimits,
): Promise<ArchiveFile[]> {
  const files: ArchiveFile[] = [];
  const seen = new Set<string>();
  const extract = tar.extract();
  const gunzip = kind === "tar.gz" ? createGunzip() : undefined;
  const source = gunzip ? Readable.from(slices(data)).pipe(gunzip) : Readable.from(slices(data));
  let settled = false;
  let entries = 0;
  let declared = 0;
  return new Promise<ArchiveFile[]>((resolve, reject) => {
    const stop = (error?: ArchiveError) => {
      if (settled) return;
      settled = true;
      source.destroy();
      extract.destroy();
      if (error) reject(error);
      else resolve(files);
    };
    const expands = () =>
      new ArchiveError(`expands beyond ${megabytes(limits.maxExpandedBytes)} MB`, {
        cap: "expanded",
        bytes: limits.maxExpandedBytes,
      });
    extract.on("error", (e: Error) => stop(new ArchiveError(`not a tar archive (${e.message})`)));
    extract.on("finish", () => stop());
    extract.on("entry", (header, stream, next) => {
      stream.on("error", () => undefined);
      const refuse = (error: ArchiveError) => {
        stream.resume();
        stop(error);
      };
      if (settled) return refuse(new ArchiveError("stopped"));
      const name = archiveEntryPath(header.name);
      if (!name)
        return refuse(
          new ArchiveError(
            `${JSON.stringify(header.name)}: not a relative path inside the archive`,
          ),
        );
      if (++entries > limits.maxEntries)
        return refuse(new ArchiveError(`holds more than ${limits.maxEntries} entries`));
      if (header.type === "directory") {
        stream.resume();
        stream.on("end", () => next());
        return;
      }
      if (header.type !== "file" && header.type !== "contiguous-file")
        return refuse(
          new ArchiveError(`${name}: a ${header.type} entry; a bundle holds regular files only`),
        );
      if (seen.has(name)) return refuse(new ArchiveError(`${name} is in the archive twice`));
      seen.add(name);
      const size = header.size ?? 0;
      if (size > limits.maxEntryBytes)
        return refuse(
          new ArchiveError(
            `${name} expands beyond ${megabytes(limits.maxEntryBytes)} MB (${size} bytes)`,
            { cap: "entry", bytes: limits.maxEntryBytes, path: name },
          ),
        );
      declared += size;
      if (declared > limits.maxExpandedBytes) return refuse(expands());
      const chunks: Buffer[] = [];
      stream.on("data", (c) => chunks.push(c as Buffer));
      stream.on("end", () => {
        files.push({ path: name, data: Buffer.concat(chunks) });
        next();
      });
    });
    void (async () => {
      let expanded = 0;
      try {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          if (settled) return;
          expanded += chunk.length;
          if (expanded > limits.maxExpandedBytes) return stop(expands());
          if (!extract.write(chunk)) await drained(extract as unknown as Emitter);
        }
        if (!settled && expanded === 0) return stop(new ArchiveError("not a tar archive (empty)"));
        if (!settled) (extract as unknown as { end(): void }).end();
      } catch (e) {
        stop(
          new ArchiveError(
            gunzip
              ? `not a gzip stream (${(e as Error).message})`
              : `unreadable (${(e as Error).message})`,
          ),
        );
      }
    })();
  });
}

interface Emitter {
  once(event: string, fn: () => void): unknown;
  off(event: string, fn: () => void): unknown;
}

/** Resolves when a writable stream can take more, or has closed. */
function drained(stream: Emitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.once("drain", done);
    stream.once("close", done);
  });
}
