import { readFile } from "node:fs/promises";
import path from "node:path";
import { projectLayout } from "../contract-model/project/project-layout.js";

/** Where the plugin identity (package name, display name, SemVer, origins) is written once. */
export const pluginIdentityFile = projectLayout.pluginFile;

/**
 * The permanent package name from schemas/plugin.json: the `<plugin>` segment of every contracts/
 * path.
 */
export async function readPluginName(root: string): Promise<string> {
  const doc = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
    packageName?: unknown;
  };
  if (typeof doc.packageName !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(doc.packageName))
    throw new Error(`${pluginIdentityFile}: packageName is missing or not a package name`);
  return doc.packageName;
}

/** The package SemVer from schemas/plugin.json, or undefined when it is unreadable. */
export async function readPackageVersion(root: string): Promise<string | undefined> {
  try {
    const doc = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
      packageVersion?: unknown;
    };
    return typeof doc.packageVersion === "string" ? doc.packageVersion : undefined;
  } catch {
    return undefined;
  }
}

/** The tool contract major from schemas/plugin.json: the `<major>` segment of UI URIs. */
export async function readPluginContractMajor(root: string): Promise<number> {
  const doc = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
    contractMajor?: unknown;
  };
  if (
    typeof doc.contractMajor !== "number" ||
    !Number.isInteger(doc.contractMajor) ||
    doc.contractMajor < 1
  )
    throw new Error(`${pluginIdentityFile}: contractMajor is missing or not a positive integer`);
  return doc.contractMajor;
}

/**
 * The package names the plugin was published under before its permanent one (`formerIdentities`
 * in schemas/plugin.json): releases under them may be imported as this plugin's history.
 */
export async function readFormerPackageNames(root: string): Promise<string[]> {
  const doc = JSON.parse(await readFile(path.join(root, pluginIdentityFile), "utf8")) as {
    formerIdentities?: { packageName?: unknown }[];
  };
  return (Array.isArray(doc.formerIdentities) ? doc.formerIdentities : [])
    .map((f) => f?.packageName)
    .filter((n): n is string => typeof n === "string");
}
