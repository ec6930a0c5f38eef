import { chmod, mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

/** How one checkout of the same content differs from another (L5 variation matrix). */
export interface TreeVariant {
  /** Create files in reverse order. */
  reverse?: boolean;
  /** Seed for per-file mtimes; 0 leaves the creation time. */
  mtimeSeed?: number;
  /** Set the exec bit on these paths on disk (the archive must not care). */
  execOnDisk?: string[];
}

/** The content of the matrix tree: plain, nested, exec-looking, non-ASCII and > 100-byte paths. */
export function matrixContent(): Record<string, string> {
  const deep =
    "deeply-nested-folder/".repeat(5) +
    "and-a-file-name-that-pushes-the-path-past-one-hundred-bytes.md";
  const longName = `${"x".repeat(120)}.txt`;
  return {
    "SKILL.md": "# Skill\n\nUse get_skillpilot_learning_context first.\n",
    "scripts/run.sh": "#!/bin/sh\necho hi\n",
    "docs/übersicht-größe.md": "Non-ASCII path (PAX path record).\n",
    "docs/日本語/ファイル.txt": "Multi-byte path.\n",
    [deep]: "A path over 100 bytes that fits the USTAR prefix field.\n",
    [`long/${longName}`]: "A single name over 100 bytes: only PAX can carry it.\n",
    "z-last.bin": "\u0000\u0001\u0002binary-ish\n",
  };
}

/** Write `content` under `dir` the way `variant` says (umask and TZ come from the process). */
export async function writeVariantTree(
  dir: string,
  content: Record<string, string>,
  variant: TreeVariant,
): Promise<void> {
  const names = Object.keys(content);
  if (variant.reverse) names.reverse();
  let seed = variant.mtimeSeed ?? 0;
  for (const name of names) {
    const abs = path.join(dir, name);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, content[name]);
    if (seed) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const t = 1_000_000_000 + (seed % 700_000_000);
      await utimes(abs, t, t);
    }
  }
  for (const name of variant.execOnDisk ?? []) await chmod(path.join(dir, name), 0o755);
}
