import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { readContractSources, defaultPaths } from "../../../generator/load.js";
import { generateFromSources } from "../../../generator/generate.js";
import type { GeneratedContract } from "../../../runtime/mcp/served-contract.js";
import { repoRoot } from "../../support/temp-project.js";
import type { Wire } from "../../support/wire.js";
import { supersedeCompleteGoalSchemas } from "./team-edits.js";

/** A revision of the contract: an edited copy of `schemas/`, generated, and its code loaded. */
export interface ContractRevision {
  root: string;
  contract: GeneratedContract;
  /** The revision's tools/list descriptors, as a host that approved it holds them. */
  descriptors: Wire[];
  cleanup(): Promise<void>;
}

/** Read and write one tool schema of a project copy. */
export async function editTool(root: string, tool: string, edit: (doc: Wire) => Wire | undefined) {
  const file = path.join(root, "schemas/tools", `${tool}.json`);
  const doc = JSON.parse(await readFile(file, "utf8")) as Wire;
  await writeFile(file, `${JSON.stringify(edit(doc) ?? doc, null, 2)}\n`);
}

/**
 * Copy the repository's contract sources, apply `edit`, generate into the copy (the generator's
 * own pipeline) and import the generated code, so a server can serve this revision of the
 * contract. Throws with the diagnostics when the edited schemas do not generate.
 */
export async function contractRevision(
  edit: (root: string) => Promise<void>,
): Promise<ContractRevision> {
  const root = await mkdtemp(path.join(repoRoot, "test/.revision-"));
  try {
    await cp(path.join(repoRoot, "schemas"), path.join(root, "schemas"), { recursive: true });
    await mkdir(path.join(root, "release"), { recursive: true });
    await cp(path.join(repoRoot, "release/line.json"), path.join(root, "release/line.json"));
    await edit(root);
    const result = await generateFromSources(await readContractSources(defaultPaths(root)));
    if (result.files.length === 0)
      throw new Error(
        `the revision does not generate: ${result.diagnostics.map((d) => d.message).join("; ")}`,
      );
    for (const f of result.files) {
      await mkdir(path.dirname(path.join(root, f.path)), { recursive: true });
      await writeFile(path.join(root, f.path), f.contents);
    }
    const load = (file: string) => import(pathToFileURL(path.join(root, "generated", file)).href);
    const [handlers, identity, tools, validators] = await Promise.all([
      load("handlers.gen.ts"),
      load("identity.gen.ts"),
      load("tools.gen.ts"),
      load("validators.gen.js"),
    ]);
    const contract: GeneratedContract = {
      pluginIdentity: identity.pluginIdentity,
      toolDescriptors: tools.toolDescriptors,
      toolScopes: tools.toolScopes,
      contractScopes: tools.contractScopes,
      toolKinds: handlers.toolKinds,
      supersededTools: handlers.supersededTools,
      validators,
    };
    return {
      root,
      contract,
      descriptors: JSON.parse(JSON.stringify(tools.toolDescriptors)) as Wire[],
      cleanup: () => rm(root, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The contract with `complete_skillpilot_goal` replaced incompatibly (its decision values renamed)
 * by `complete_skillpilot_active_goal`; the old tool stays, superseded, served through an adapter.
 */
export const replacedCompleteGoal = (): Promise<ContractRevision> =>
  contractRevision(supersedeCompleteGoalSchemas);
