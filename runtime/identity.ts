import { readFile } from "node:fs/promises";
import path from "node:path";
import { validatePluginIdentity } from "../generated/validators.gen.js";

/** The version layers the runtime serves (L2), read once from schemas/plugin.json. */
export interface RuntimeIdentity {
  packageName: string;
  contractMajor: number;
  /** Log/metric label naming the plugin line, e.g. `skillpilot-coach/v1`. */
  pluginLine: string;
  /** The workflow version new sessions are pinned to (and the only one served). */
  workflowVersion: string;
  stateSchemaVersion: number;
  serverBuild: string;
  /** The one origin the UI widgets run on (L1). */
  widgetOrigin: string;
  /** The public MCP endpoint of the plugin (schemas/plugin.json). */
  mcpUrl: string;
}

/** Read the plugin identity and combine it with the deployed build. */
export async function loadIdentity(root: string, serverBuild: string): Promise<RuntimeIdentity> {
  const file = path.join(root, "schemas/plugin.json");
  const plugin = JSON.parse(await readFile(file, "utf8")) as unknown;
  if (!validatePluginIdentity(plugin))
    throw new Error(`${file} does not match the plugin identity schema`);
  return {
    packageName: plugin.packageName,
    contractMajor: plugin.contractMajor,
    pluginLine: `${plugin.packageName}/v${plugin.contractMajor}`,
    workflowVersion: plugin.workflowVersion,
    stateSchemaVersion: plugin.stateSchemaVersion,
    serverBuild,
    widgetOrigin: plugin.widgetOrigin,
    mcpUrl: plugin.mcpUrl,
  };
}
