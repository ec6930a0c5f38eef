import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import tar from "tar-stream";

/** One regular file of an archive: its normalized posix path and its bytes. */
export interface ArchiveFile {
  path: string;
  data: Buffer;
}

/** Thrown for bytes that are not a readable archive, or an archive holding what none may hold. */
export class ArchiveError extends Error {
  override name = "ArchiveError";
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

/**
 * Every regular file of a tar (gzip-compressed or not), in archive order. Directories are skipped;
 * links, devices and FIFOs, absolute paths, `..` segments and a path given twice are refused, and
 * so are truncated or corrupt bytes: an archive an importer cannot read exactly is not read at all.
 */
export async function readArchive(data: Buffer, kind: ArchiveKind): Promise<ArchiveFile[]> {
  let tarBytes = data;
  if (kind === "tar.gz")
    try {
      tarBytes = gunzipSync(data);
    } catch (e) {
      throw new ArchiveError(`not a gzip stream (${(e as Error).message})`);
    }
  if (tarBytes.length === 0 || tarBytes.length % 512 !== 0)
    throw new ArchiveError(
      `not a tar archive (${tarBytes.length} bytes, not whole 512-byte blocks)`,
    );
  const files: ArchiveFile[] = [];
  const seen = new Set<string>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("finish", resolve);
    extract.on("error", (e: Error) => reject(new ArchiveError(`not a tar archive (${e.message})`)));
  });
  extract.on("entry", (header, stream, next) => {
    const fail = (why: string) => {
      stream.resume();
      extract.destroy(new ArchiveError(why));
    };
    if (header.type === "directory") {
      stream.resume();
      stream.on("end", () => next());
      return;
    }
    if (header.type !== "file" && header.type !== "contiguous-file")
      return fail(`${header.name}: a ${header.type} entry; a bundle holds regular files only`);
    const name = normalizePath(header.name);
    if (!name) return fail(`${header.name}: not a relative path inside the archive`);
    if (seen.has(name)) return fail(`${name} is in the archive twice`);
    seen.add(name);
    const chunks: Buffer[] = [];
    stream.on("data", (c) => chunks.push(c as Buffer));
    stream.on("end", () => {
      files.push({ path: name, data: Buffer.concat(chunks) });
      next();
    });
  });
  Readable.from([tarBytes]).pipe(extract);
  await done;
  return files;
}

/** `./a/b` → `a/b`; undefined for an absolute path, a `..` segment or an empty name. */
function normalizePath(name: string): string | undefined {
  if (name.startsWith("/") || name.includes("\\") || name.includes("\0")) return undefined;
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return undefined;
  return parts.join("/");
}
