import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJson } from "../contract-model/canonical.js";

/** An append-only JSON record under the project: `{$comment, format, <list>: [...]}`. */
export interface RecordFile {
  /** Project-relative path. */
  file: string;
  /** The format tag the file carries. */
  format: string;
  /** The key of the list of items. */
  list: string;
  /** The `$comment` written at the top: who writes the file. */
  comment: string;
}

/** The items of a record, oldest first; a missing file is none. Throws on a malformed record. */
export async function readRecord<T>(root: string, record: RecordFile): Promise<T[]> {
  const text = await readFile(path.join(root, record.file), "utf8").catch(() => undefined);
  if (text === undefined) return [];
  const doc = JSON.parse(text) as Record<string, unknown>;
  const items = doc[record.list];
  if (doc.format !== record.format || !Array.isArray(items))
    throw new Error(`${record.file} is not a ${record.format} record`);
  return items as T[];
}

/** Append one item; earlier items are written back as read, as canonical JSON. */
export async function appendRecord<T>(root: string, record: RecordFile, item: T): Promise<void> {
  const items = await readRecord<T>(root, record);
  const abs = path.join(root, record.file);
  await mkdir(path.dirname(abs), { recursive: true });
  await writeFile(
    abs,
    canonicalJson({
      $comment: record.comment,
      format: record.format,
      [record.list]: [...items, item],
    }),
  );
}
