import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../contract-model/canonical.js";
import { toolchainPackage } from "../contract-model/project/toolchain.js";
import type { ContractSources } from "./build-phases/sources.js";
import { projectLayout } from "../contract-model/project/project-layout.js";

/** Where a project keeps its contract sources, relative to its root. */
export interface ProjectPaths {
  root: string;
  schemasDir: string;
  lineFile: string;
}

export const defaultPaths = (root: string): ProjectPaths => ({
  root,
  schemasDir: projectLayout.schemasDir,
  lineFile: projectLayout.lineFile,
});

/**
 * Read every `*.json` under the schemas folder plus the line document, as repository-relative posix
 * paths.
 */
export async function readContractSources(paths: ProjectPaths): Promise<ContractSources> {
  const rels = (await listJson(path.join(paths.root, paths.schemasDir))).map((abs) =>
    toPosix(path.relative(paths.root, abs)),
  );
  const lineFile = toPosix(paths.lineFile);
  const names = [...rels, lineFile];
  const files = await Promise.all(
    names.map(async (file) => ({
      file,
      text: await readFile(path.join(paths.root, file), "utf8").catch(() => undefined),
    })),
  );
  return {
    files: files.filter((f): f is { file: string; text: string } => f.text !== undefined),
    lineFile,
    generatorVersion: toolchainPackage().version,
    skills: await readSkillHashes(path.join(paths.root, projectLayout.skillsDir)),
  };
}

/**
 * Every regular file below the skills folder with its sha256, sorted. Lenient on purpose: a
 * symbolic link or device is left out here, because bundling the tree reports it (the snapshot
 * only records what the skills say); a missing folder is an empty tree.
 */
async function readSkillHashes(dir: string): Promise<{ path: string; sha256: string }[]> {
  const out: { path: string; sha256: string }[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(child);
      else if (e.isFile())
        out.push({ path: child, sha256: sha256Hex(await readFile(path.join(dir, child))) });
    }
  };
  await walk("");
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

async function listJson(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listJson(abs)));
    else if (e.isFile() && e.name.endsWith(".json")) out.push(abs);
  }
  return out;
}

const toPosix = (p: string) => p.split(path.sep).join("/");
