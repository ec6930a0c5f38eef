import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import type { Diagnostic, Location } from "../../diagnostics/diagnostic.js";
import { diagnose } from "../../diagnostics/rule.js";
import { canonicalSha256 } from "../../contract-model/canonical.js";
import { sha256Hex } from "../../contract-model/file-tree/sha256-manifest.js";
import {
  projectLayout,
  draftDir,
  draftsRoot,
  publishedDir,
  releaseFiles,
} from "../../contract-model/project/project-layout.js";
import { pluginIdentityFile as pluginFile } from "../plugin-identity.js";
import type { ReleaseIndex } from "../../contract-model/release/release-index.js";
import {
  MANIFEST_DISPLAY_NAME,
  MANIFEST_ORIGIN,
  MANIFEST_PACKAGE_NAME,
  MANIFEST_SEMVER,
  MANIFEST_VERSION_REUSED,
} from "./manifest-gate.rules.js";

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
        { variant: "line", line: line.displayName, source: source.displayName },
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
        diagnose(
          MANIFEST_SEMVER,
          { variant: "index", version: entry.version },
          { file: projectLayout.releaseIndex },
        ),
      );
    else if (previous && !semver.gt(entry.version, previous))
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          { variant: "order", version: entry.version, previous },
          { file: projectLayout.releaseIndex },
        ),
      );
    previous = entry.version;
    if (entry.packageName !== plugin)
      out.push(
        diagnose(
          MANIFEST_PACKAGE_NAME,
          {
            variant: "published",
            version: entry.version,
            published: entry.packageName,
            current: plugin,
          },
          { file: pluginFile, pointer: "/packageName" },
        ),
      );
    if (!manifest) continue;
    if (manifest.version !== entry.version)
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          {
            variant: "published",
            dir: location.file,
            manifest: manifest.version,
            version: entry.version,
          },
          location,
        ),
      );
    if (originOf(manifest.mcpUrl) !== originOf(source.mcpUrl))
      out.push(
        diagnose(
          MANIFEST_ORIGIN,
          {
            variant: "moved",
            version: entry.version,
            from: String(originOf(manifest.mcpUrl)),
            to: String(originOf(source.mcpUrl)),
          },
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
          { variant: "below", version: source.version, published: latest.version },
          { file: pluginFile, pointer: "/packageVersion" },
        ),
      );
    const same = published.find((p) => p.entry.version === source.version)?.entry;
    const current = await readFile(path.join(root, projectLayout.snapshotFile)).catch(
      () => undefined,
    );
    const shipped = same
      ? await readFile(
          path.join(root, publishedDir(plugin, same.version), releaseFiles.snapshot),
        ).catch(() => undefined)
      : undefined;
    // Judged against the published snapshot itself (a missing one is PUBLISHED_MISSING).
    if (
      same &&
      current &&
      shipped &&
      sha256Hex(current) !== sha256Hex(shipped) &&
      !samePackageContract(current, shipped)
    )
      out.push(
        diagnose(
          MANIFEST_VERSION_REUSED,
          { version: source.version },
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
        diagnose(
          MANIFEST_SEMVER,
          { variant: "draftName", name },
          { file: `${draftsRoot(plugin)}/${name}` },
        ),
      );
    else if (manifest && manifest.version !== version)
      out.push(
        diagnose(
          MANIFEST_SEMVER,
          { variant: "draft", dir, manifest: manifest.version, version },
          { file: dir },
        ),
      );
    if (manifest) checkIdentity(manifest, { file: `${dir}/package/plugin.json` }, out, plugin);
  }
  return out;
}

/**
 * The line's policy axes and revision are server-authoritative and move after publication without a
 * package (L11: record-published itself moves the line to PUBLISHED): two snapshots that differ only
 * there ship the same package contract.
 */
const linePolicyFields = [
  "policyRevision",
  "supportLifecycle",
  "publicationStatus",
  "newSessionPolicy",
  "successor",
];
function samePackageContract(a: Buffer, b: Buffer): boolean {
  const strip = (buf: Buffer) => {
    try {
      const doc = JSON.parse(buf.toString("utf8")) as { line?: Record<string, unknown> };
      if (doc.line) for (const f of linePolicyFields) delete doc.line[f];
      return canonicalSha256(doc);
    } catch {
      return undefined;
    }
  };
  const stripped = strip(a);
  return stripped !== undefined && stripped === strip(b);
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
        { variant: "length", name: id.displayName, length, max: maxDisplayName },
        at("/displayName"),
      ),
    );
  if (permanentName && id.packageName !== permanentName)
    out.push(
      diagnose(
        MANIFEST_PACKAGE_NAME,
        { variant: "permanent", name: id.packageName, permanent: permanentName },
        at("/packageName"),
      ),
    );
  if (!semver.valid(id.version) || semver.clean(id.version) !== id.version)
    out.push(
      diagnose(MANIFEST_SEMVER, { variant: "version", version: id.version }, at("/packageVersion")),
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
          {
            variant: "field",
            field,
            origin: origin ?? "no https origin",
            mcp: first ?? "no https origin",
          },
          at(`/${field}`),
        ),
      );
  if (id.oauthResource !== id.mcpUrl)
    out.push(diagnose(MANIFEST_ORIGIN, { variant: "audience" }, at("/oauthResource")));
  if (first && id.widgetOrigin !== first)
    out.push(diagnose(MANIFEST_ORIGIN, { variant: "widget", origin: first }, at("/widgetOrigin")));
  const mcpPath = first ? new URL(id.mcpUrl).pathname : "";
  if (
    first &&
    id.protectedResourceMetadataUrl !== `${first}/.well-known/oauth-protected-resource${mcpPath}`
  )
    out.push(
      diagnose(
        MANIFEST_ORIGIN,
        {
          variant: "metadata",
          url: `${first}/.well-known/oauth-protected-resource${mcpPath}`,
        },
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
