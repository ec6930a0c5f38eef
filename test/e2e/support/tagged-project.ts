import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectLayout, publishedDir } from "../../../contract-model/project/project-layout.js";
import { retiredDefinitionsFormat } from "../../../evolution/approved-definitions.js";
import { openStatement } from "../../../release/statement/approved-statement.js";
import { repoRoot } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";

/** One release of a tagged project: its version and its tools/list descriptors. */
export interface ReleaseSpec {
  version: string;
  tools: Wire[];
  retired?: boolean;
}

/** A project a server runs for, with release records and a signed statement, built in ms. */
export interface TaggedProject {
  root: string;
  /** The config overrides that point the server at the repository's line and curriculum. */
  overrides: Record<string, string>;
  cleanup(): Promise<void>;
}

const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * Write the release records a team's `record-published` and `retire-definitions` steps leave —
 * the release index, each release's snapshot, the retirements — for a project whose current
 * contract is `snapshotFile` (a generated contract snapshot), then append the signed statement
 * with the release code itself (a development key). The records are written directly rather than
 * by the CLI steps, so a suite needs no packaging: only what the runtime and the statement read.
 */
export async function taggedProject(
  snapshotFile: string,
  releases: readonly ReleaseSpec[],
): Promise<TaggedProject> {
  const root = await mkdtemp(path.join(tmpdir(), "skillpilot-tagged-"));
  try {
    const at = (rel: string) => path.join(root, rel);
    await mkdir(at("schemas"), { recursive: true });
    await mkdir(at("generated"), { recursive: true });
    for (const file of ["schemas/lanes.json", "schemas/plugin.json"])
      await cp(path.join(repoRoot, file), at(file));
    await cp(snapshotFile, at(projectLayout.snapshotFile));
    await cp(path.join(repoRoot, "contracts/ui"), at("contracts/ui"), { recursive: true });
    const base = JSON.parse(await readFile(snapshotFile, "utf8")) as Wire;
    const entries = [];
    for (const [i, r] of releases.entries()) {
      const bytes = `${JSON.stringify({ ...base, tools: r.tools }, null, 2)}\n`;
      const dir = at(publishedDir("skillpilot-coach", r.version));
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "contract.snapshot.json"), bytes);
      entries.push({
        version: r.version,
        packageName: "skillpilot-coach",
        displayName: "SkillPilot Coach",
        contractMajor: 1,
        publishedAt: `2026-11-${String(10 + i).padStart(2, "0")}`,
        contentSha256: sha256(r.version),
        snapshotSha256: sha256(bytes),
        ui: {},
        linePolicyRevision: 1,
      });
    }
    await writeFile(
      at(projectLayout.releaseIndex),
      `${JSON.stringify({ indexFormat: "skillpilot-release-index/1", releases: entries }, null, 2)}\n`,
    );
    const retired = releases.filter((r) => r.retired);
    await writeFile(
      at(projectLayout.retiredDefinitions),
      `${JSON.stringify({
        format: retiredDefinitionsFormat,
        retirements: retired.map((r) => ({
          version: r.version,
          reason: "every host rescanned",
          retiredAt: "2026-12-01",
        })),
      })}\n`,
    );
    const opened = await openStatement(root);
    if (!opened.writer) throw new Error(JSON.stringify(opened.diagnostics));
    const last = retired.at(-1) ?? releases.at(-1);
    await opened.writer.append(
      { kind: retired.length ? "retired" : "published", version: String(last?.version) },
      "2026-12-01",
    );
    return {
      root,
      overrides: {
        lineFile: path.join(repoRoot, "release/line.json"),
        allowlistFile: path.join(repoRoot, "release/first-party-allowlist.json"),
        curriculumFile: path.join(repoRoot, "curricula/skillpilot-basics.curriculum.json"),
      },
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}
