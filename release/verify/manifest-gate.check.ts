import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule-table.js";
import { sha256Hex } from "../../contract/file-tree/sha256-manifest.js";
import {
  projectLayout,
  draftDir,
  draftsRoot,
  publishedDir,
  releaseFiles,
} from "../../contract/project-layout.js";
import { pluginIdentityFile as pluginFile } from "../plugin-identity.js";
import type { ReleaseIndex } from "../publish/release-index.js";

export const MANIFEST_DISPLAY_NAME = defineRule({
  id: "MANIFEST_DISPLAY_NAME",
  severity: "error",
  summary:
    "The display name is empty, longer than 30 characters, or differs between " +
    "plugin.json and the line (L1, L12.1).",
});
export const MANIFEST_PACKAGE_NAME = defineRule({
  id: "MANIFEST_PACKAGE_NAME",
  severity: "error",
  summary:
    "The technical package name is permanent: it may never differ from what was " +
    "published (L1, L12.1).",
});
export const MANIFEST_SEMVER = defineRule({
  id: "MANIFEST_SEMVER",
  severity: "error",
  summary:
    "Package SemVer is inconsistent across plugin.json, drafts, published " +
    "folders and the index (L2, L12.1).",
});
export const MANIFEST_VERSION_REUSED = defineRule({
  id: "MANIFEST_VERSION_REUSED",
  severity: "error",
  summary: "packageVersion names a published version but the contract changed; bump it (L4, L6).",
});
export const MANIFEST_ORIGIN = defineRule({
  id: "MANIFEST_ORIGIN",
  severity: "error",
  summary:
    "MCP URL, OAuth resource, widget origin and metadata URL must share one " +
    "origin that never changes (L1, L12.1).",
});

/**
 * The fields of a plugin identity the gate reads, from schemas/plugin.json or a package manifest.
 */
interface Identity {
  packageName: string;
  displayName: string;
  version: string;
  mcpUrl: string;
  oauthResource: string;
  widgetOrigin: string;
  protectedResourceMetadataUrl: string;
}

const maxDisplayName = 30;

/**
 * The L12.1 manifest gate over the source identity, every draft and every published version:
 * display name ≤ 30 characters, one permanent package name, consistent SemVer, and the MCP URL,
 * OAuth resource, widget origin and protected-resource metadata URL on one unchanging origin.
 */
export async function checkManifestGate(
  root: string,
  index: ReleaseIndex,
  line: Record<string, unknown> | undefined,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const text = await readFile(path.join(root, pluginFile), "utf8");
  const raw = JSON.parse(text) as Record<string, string>;
  const source: Identity = { ...(raw as unknown as Identity), version: raw.packageVersion };
  checkIdentity(source, { file: pluginFile }, out);
  if (line && line.displayName !== source.displayName)
    out.push(
      diagnose(
        MANIFEST_DISPLAY_NAME,
        `release/line.json displayName ${JSON.stringify(line.displayName)} ` +
          `differs from ${JSON.stringify(source.displayName)}`,
        { file: projectLayout.lineFile, pointer: "/displayName" },
      ),
    );

  const plugin = source.packageName;
  const published = await Promise.all(
    index.releases.map(async (r) => ({
      entry: r,
      manifest: await packageIdentity(path.join(root, publishedDir(plugin, r.version))),
    })),
  );
  let previous: string | undefined;
  for (const { entry, manifest } of published) {
    const location = { file: publishedDir(plugin, entry.version) };
    if (!semver.valid(entry.version))
      out.push(
        diagnose(MANIFEST_SEMVER, `index version ${JSON.stringify(entry.version)} is not SemVer`, {
          file: projectLayout.releaseIndex,
        }),
      );
    else if (previous && !semver.gt(entry.version, previous))
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          `index lists ${entry.version} after ${previous}; versions must ascend`,
          { file: projectLayout.releaseIndex },
        ),
      );
    previous = entry.version;
    if (entry.packageName !== plugin)
      out.push(
        diagnose(
          MANIFEST_PACKAGE_NAME,
          `${entry.version} was published as ${entry.packageName}, now the package is ${plugin}`,
          { file: pluginFile, pointer: "/packageName" },
        ),
      );
    if (!manifest) continue;
    if (manifest.version !== entry.version)
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          `${location.file}/package/plugin.json carries ${manifest.version}, the ` +
            `index ${entry.version}`,
          location,
        ),
      );
    if (originOf(manifest.mcpUrl) !== originOf(source.mcpUrl))
      out.push(
        diagnose(
          MANIFEST_ORIGIN,
          `${entry.version} was published on ${originOf(manifest.mcpUrl)}; a ` +
            `published plugin cannot move to ${originOf(source.mcpUrl)}`,
          { file: pluginFile, pointer: "/mcpUrl" },
        ),
      );
  }
  const latest = published.at(-1)?.entry;
  if (latest && semver.valid(source.version) && semver.valid(latest.version)) {
    if (semver.lt(source.version, latest.version))
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          `packageVersion ${source.version} is below the published ${latest.version}`,
          { file: pluginFile, pointer: "/packageVersion" },
        ),
      );
    const same = published.find((p) => p.entry.version === source.version)?.entry;
    const current = await readFile(path.join(root, projectLayout.snapshotFile)).catch(
      () => undefined,
    );
    if (same && current && sha256Hex(current) !== same.snapshotSha256)
      out.push(
        diagnose(
          MANIFEST_VERSION_REUSED,
          `packageVersion ${source.version} is published, but the generated ` +
            `contract differs from it; bump packageVersion`,
          { file: pluginFile, pointer: "/packageVersion" },
        ),
      );
  }
  for (const name of (
    await readdir(path.join(root, draftsRoot(plugin))).catch(() => [] as string[])
  ).sort()) {
    if (name.includes(".tmp-")) continue;
    const version = name.replace(/-SNAPSHOT$/, "");
    const dir = draftDir(plugin, version);
    const manifest = await packageIdentity(path.join(root, dir));
    if (!name.endsWith("-SNAPSHOT") || !semver.valid(version))
      out.push(
        diagnose(MANIFEST_SEMVER, `draft folder ${name} is not <version>-SNAPSHOT`, {
          file: `${draftsRoot(plugin)}/${name}`,
        }),
      );
    else if (manifest && manifest.version !== version)
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          `${dir}/package/plugin.json carries ${manifest.version}, the folder ${version}`,
          { file: dir },
        ),
      );
    if (manifest) checkIdentity(manifest, { file: `${dir}/package/plugin.json` }, out, plugin);
  }
  return out;
}

function checkIdentity(
  id: Identity,
  location: Location,
  out: Diagnostic[],
  permanentName?: string,
): void {
  const at = (pointer: string): Location => ({ ...location, pointer });
  const length = [...(id.displayName ?? "")].length;
  if (length === 0 || length > maxDisplayName)
    out.push(
      diagnose(
        MANIFEST_DISPLAY_NAME,
        `display name ${JSON.stringify(id.displayName)} has ${length} characters ` +
          `(1–${maxDisplayName} allowed)`,
        at("/displayName"),
      ),
    );
  if (permanentName && id.packageName !== permanentName)
    out.push(
      diagnose(
        MANIFEST_PACKAGE_NAME,
        `package name ${id.packageName} differs from ${permanentName}`,
        at("/packageName"),
      ),
    );
  if (!semver.valid(id.version) || semver.clean(id.version) !== id.version)
    out.push(
      diagnose(
        MANIFEST_SEMVER,
        `version ${JSON.stringify(id.version)} is not SemVer x.y.z`,
        at("/packageVersion"),
      ),
    );
  const origins = new Map<string, string | undefined>([
    ["mcpUrl", originOf(id.mcpUrl)],
    ["oauthResource", originOf(id.oauthResource)],
    ["widgetOrigin", originOf(id.widgetOrigin)],
    ["protectedResourceMetadataUrl", originOf(id.protectedResourceMetadataUrl)],
  ]);
  const first = origins.get("mcpUrl");
  for (const [field, origin] of origins)
    if (!origin || origin !== first)
      out.push(
        diagnose(
          MANIFEST_ORIGIN,
          `${field} is on ${origin ?? "no https origin"}, the MCP URL on ` +
            `${first ?? "no https origin"}`,
          at(`/${field}`),
        ),
      );
  if (id.oauthResource !== id.mcpUrl)
    out.push(
      diagnose(
        MANIFEST_ORIGIN,
        "the OAuth resource must be the MCP URL itself (one audience, no dual audience)",
        at("/oauthResource"),
      ),
    );
  if (first && id.widgetOrigin !== first)
    out.push(
      diagnose(MANIFEST_ORIGIN, `widgetOrigin must be exactly ${first}`, at("/widgetOrigin")),
    );
  const mcpPath = first ? new URL(id.mcpUrl).pathname : "";
  if (
    first &&
    id.protectedResourceMetadataUrl !== `${first}/.well-known/oauth-protected-resource${mcpPath}`
  )
    out.push(
      diagnose(
        MANIFEST_ORIGIN,
        `protectedResourceMetadataUrl must be ` +
          `${first}/.well-known/oauth-protected-resource${mcpPath} (RFC 9728 for ` +
          `the MCP URL)`,
        at("/protectedResourceMetadataUrl"),
      ),
    );
}

/**
 * The identity in a release folder's package/plugin.json; undefined when unreadable (other checks
 * report it).
 */
async function packageIdentity(absDir: string): Promise<Identity | undefined> {
  try {
    const m = JSON.parse(
      await readFile(path.join(absDir, releaseFiles.packageDir, "plugin.json"), "utf8"),
    ) as {
      name: string;
      displayName: string;
      version: string;
      widgetOrigin: string;
      mcp: { url: string; oauthResource: string; protectedResourceMetadataUrl: string };
    };
    return {
      packageName: m.name,
      displayName: m.displayName,
      version: m.version,
      mcpUrl: m.mcp.url,
      oauthResource: m.mcp.oauthResource,
      widgetOrigin: m.widgetOrigin,
      protectedResourceMetadataUrl: m.mcp.protectedResourceMetadataUrl,
    };
  } catch {
    return undefined;
  }
}

function originOf(url: string | undefined): string | undefined {
  try {
    const u = new URL(String(url));
    return u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
