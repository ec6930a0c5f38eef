import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { toolchainPackage } from "../contract-model/toolchain.js";
import type { ContractSources } from "./build-model.js";
import { projectLayout } from "../contract-model/project-layout.js";

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
  };
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
