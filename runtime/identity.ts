import { pluginIdentity } from "../generated/identity.gen.js";

/** The version layers the runtime serves (L2), from the generated plugin identity. */
export interface RuntimeIdentity {
  packageName: string;
  /** Public display name (L1), e.g. "SkillPilot Coach". */
  displayName: string;
  contractMajor: number;
  /** Log/metric label naming the plugin line, e.g. `skillpilot-coach/v1`. */
  pluginLine: string;
  /** The workflow version new sessions are pinned to (and the only one served). */
  workflowVersion: string;
  stateSchemaVersion: number;
  serverBuild: string;
  /** The one origin the UI widgets run on (L1). */
  widgetOrigin: string;
  /** The public MCP endpoint of the plugin (schemas/plugin.json): also the OAuth resource (L1). */
  mcpUrl: string;
  /** The authorization server the plugin names (schemas/plugin.json `oauthIssuer`). */
  oauthIssuer: string;
}

/** The generated plugin identity combined with the deployed build. */
export function runtimeIdentity(serverBuild: string): RuntimeIdentity {
  return {
    packageName: pluginIdentity.packageName,
    displayName: pluginIdentity.displayName,
    contractMajor: pluginIdentity.contractMajor,
    pluginLine: `${pluginIdentity.packageName}/v${pluginIdentity.contractMajor}`,
    workflowVersion: pluginIdentity.workflowVersion,
    stateSchemaVersion: pluginIdentity.stateSchemaVersion,
    serverBuild,
    widgetOrigin: pluginIdentity.widgetOrigin,
    mcpUrl: pluginIdentity.mcpUrl,
    oauthIssuer: pluginIdentity.oauthIssuer,
  };
}
