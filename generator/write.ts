import { mkdir, readFile, readdir, writeFile, rm } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../contract-model/canonical.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../diagnostics/rule.js";
import type { EmittedFile } from "./emit/emitted-file.js";
import { manifestPath } from "./emit/manifest.emitter.js";

const GENERATED_DRIFT = defineRule({
  id: "GENERATED_DRIFT",
  family: "generator",
  severity: "error",
  summary: "A file in generated/ differs from what the schemas produce; run `skillpilot generate`.",
  message: {
    missing: "{file} is missing; run `skillpilot generate`",
    differs: "{file} differs from what the schemas produce; run `skillpilot generate`",
  },
});
const GENERATED_EDITED = defineRule({
  id: "GENERATED_EDITED",
  family: "generator",
  severity: "error",
  summary: "A generated file was edited by hand; edit the schema instead.",
  message: "{file} was edited by hand; change the schema and run `skillpilot generate`",
});
const SOURCE_CHANGED = defineRule({
  id: "SOURCE_CHANGED",
  family: "generator",
  severity: "error",
  summary: "A schema changed since generated/ was last written.",
  message: {
    changed:
      "{file} changed since generated/ was last written, so {stale} out of date; " +
      "run `skillpilot generate`",
    added:
      "{file} was added since generated/ was last written, so {stale} out of date; run `skillpilot generate`",
    removed:
      "{file} was removed since generated/ was last written, so {stale} out of date; run `skillpilot generate`",
  },
});

/**
 * Write emitted files under `root`, and remove stale `*.gen.*` files the generator no longer emits.
 */
export async function writeGenerated(
  root: string,
  files: readonly EmittedFile[],
): Promise<string[]> {
  const written: string[] = [];
  const dirs = new Set(files.map((f) => path.dirname(f.path)));
  for (const dir of dirs) await mkdir(path.join(root, dir), { recursive: true });
  for (const f of files) {
    const abs = path.join(root, f.path);
    const current = await readFile(abs, "utf8").catch(() => undefined);
    if (current === f.contents) continue;
    await writeFile(abs, f.contents);
    written.push(f.path);
  }
  const wanted = new Set(files.map((f) => f.path));
  for (const dir of dirs)
    for (const name of await readdir(path.join(root, dir)))
      if (/\.gen\.|\.snapshot\.json$/.test(name) && !wanted.has(`${dir}/${name}`))
        await rm(path.join(root, dir, name));
  return written;
}

/**
 * Compare emitted files with the disk. The on-disk manifest tells whether a schema changed
 * (SOURCE_CHANGED: reported alone, once per changed schema, since regenerating fixes every output)
 * or, with the schemas unchanged, which generated file was edited by hand (GENERATED_EDITED) or
 * drifted (GENERATED_DRIFT).
 */
export async function checkGenerated(
  root: string,
  files: readonly EmittedFile[],
): Promise<Diagnostic[]> {
  const diagnostics: Diagnostic[] = [];
  const manifestText = await readFile(path.join(root, manifestPath), "utf8").catch(() => undefined);
  let onDisk: { sources?: Record<string, string>; outputs?: Record<string, string> } = {};
  try {
    onDisk = manifestText ? JSON.parse(manifestText) : {};
  } catch {
    onDisk = {};
  }
  const fresh = files.find((f) => f.path === manifestPath);
  const freshManifest = fresh ? (JSON.parse(fresh.contents) as typeof onDisk) : {};
  const outputs: Diagnostic[] = [];
  for (const f of files) {
    if (f.path === manifestPath) continue;
    const current = await readFile(path.join(root, f.path), "utf8").catch(() => undefined);
    if (current === f.contents) continue;
    if (current === undefined) {
      outputs.push(
        diagnose(GENERATED_DRIFT, { variant: "missing", file: f.path }, { file: f.path }),
      );
    } else if (onDisk.outputs?.[f.path] && onDisk.outputs[f.path] !== sha256Hex(current)) {
      outputs.push(diagnose(GENERATED_EDITED, { file: f.path }, { file: f.path }));
    } else {
      outputs.push(
        diagnose(GENERATED_DRIFT, { variant: "differs", file: f.path }, { file: f.path }),
      );
    }
  }
  // A changed schema is the cause of every drifted output, and `generate` is its one fix: report
  // the cause, once per changed schema, with the count of what it made stale.
  const stale =
    outputs.length === 1 ? "1 file in generated/ is" : `${outputs.length} files in generated/ are`;
  for (const [file, hash] of Object.entries(freshManifest.sources ?? {}))
    if (onDisk.sources && onDisk.sources[file] !== hash)
      diagnostics.push(
        diagnose(
          SOURCE_CHANGED,
          { variant: onDisk.sources[file] ? "changed" : "added", file, stale },
          { file },
        ),
      );
  for (const file of Object.keys(onDisk.sources ?? {}))
    if (!(file in (freshManifest.sources ?? {})))
      diagnostics.push(diagnose(SOURCE_CHANGED, { variant: "removed", file, stale }, { file }));
  if (diagnostics.length === 0) diagnostics.push(...outputs);
  if (diagnostics.length === 0 && manifestText !== fresh?.contents)
    diagnostics.push(
      diagnose(GENERATED_DRIFT, { variant: "differs", file: manifestPath }, { file: manifestPath }),
    );
  return diagnostics;
}
