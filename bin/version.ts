import { readFileSync } from "node:fs";
import path from "node:path";
import { projectLayout } from "../contract-model/project/project-layout.js";
import { toolchainPackage } from "../contract-model/project/toolchain.js";

/**
 * `skillpilot --version`: the toolchain's own version, then the version layers of the project at
 * `root` (L2): the tool contract major and the plugin package version from schemas/plugin.json.
 */
export function versionText(root: string): string {
  const lines = [`skillpilot ${toolchainPackage().version}`];
  try {
    const plugin = JSON.parse(
      readFileSync(path.join(root, projectLayout.pluginFile), "utf8"),
    ) as Record<string, unknown>;
    lines.push(
      `contract major ${String(plugin.contractMajor)}`,
      `plugin ${String(plugin.packageName)} ${String(plugin.packageVersion)}`,
    );
  } catch {
    lines.push(`no SkillPilot project at ${root} (${projectLayout.pluginFile} is unreadable)`);
  }
  return `${lines.join("\n")}\n`;
}
