/**
 * The path of an archive entry as an importer may use it: `./a//b/` → `a/b`. Undefined for a name
 * that could point outside the archive or mean different files on different systems: absolute
 * (`/x`, `C:x`, `\\x`), a `..` segment, a backslash, a control character or an empty name. Applied
 * to the name tar-stream reports, which already carries PAX `path` records and GNU long names.
 */
export function archiveEntryPath(name: string): string | undefined {
  if (name.startsWith("/") || name.includes("\\") || /^[A-Za-z]:/.test(name)) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\u0000-\u001f\u007f]/.test(name)) return undefined;
  const parts = name.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.includes("..")) return undefined;
  return parts.join("/");
}
