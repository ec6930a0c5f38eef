import type { ContractSnapshot } from "../../contract-model/snapshot.js";
import { canonicalJson } from "../../contract-model/canonical.js";
import type { BundleFile } from "../../contract-model/file-tree/bundle-file.js";
import type { UiArtifact } from "../ui/build-ui.js";

/** Format tag of the package manifest (`plugin.json` at the root of both archives). */
export const packageManifestFormat = "skillpilot-coach-package/1";

/** What goes into the installable package besides the generated contract. */
export interface PackageInputs {
  snapshot: ContractSnapshot;
  version: string;
  skills: readonly BundleFile[];
  /** The active UI artifacts, by resource name. */
  ui: readonly UiArtifact[];
}

const json = (value: unknown) => Buffer.from(canonicalJson(value), "utf8");
const file = (path: string, data: Buffer): BundleFile => ({ path, data, mode: 0o644 });

/**
 * The package tree shipped in the install bundle and the submission ZIP (L3, L5, L7, L9):
 * `plugin.json` (public identity, version, one origin, pointers), `tools.json` (tools/list
 * descriptors), `contract-line.json`, `skills/**` (frozen tree) and `ui/<name>/index.html`.
 * Server-side layers (internal adapter path, workflow and state schema versions) stay out:
 * the server is never bundled and its internals are not public.
 */
export function packageTree(input: PackageInputs): BundleFile[] {
  const { snapshot, version } = input;
  const p = snapshot.plugin as ContractSnapshot["plugin"] & Record<string, string | number>;
  const manifest = {
    manifestFormat: packageManifestFormat,
    name: p.packageName,
    displayName: p.displayName,
    version,
    contractMajor: snapshot.contractMajor,
    mcp: {
      url: p.mcpUrl,
      oauthResource: p.oauthResource,
      oauthIssuer: p.oauthIssuer,
      protectedResourceMetadataUrl: p.protectedResourceMetadataUrl,
    },
    widgetOrigin: p.widgetOrigin,
    tools: "tools.json",
    contractLine: "contract-line.json",
    skills: input.skills.length ? "skills/" : null,
    ui: Object.fromEntries(
      input.ui.map((u) => [
        u.name,
        { uri: u.uri, file: `ui/${u.name}/index.html`, mimeType: "text/html;profile=mcp-app" },
      ]),
    ),
  };
  // What hosts approve: the current tools. A superseded tool stays callable on the server through
  // its adapter for the releases that hold it, but a new release does not hold it.
  const tools = snapshot.tools
    .filter((t) => (t as { supersededBy?: string }).supersededBy === undefined)
    .map(({ kind: _kind, ...descriptor }) => descriptor);
  const { activeUi: _activeUi, ...line } = snapshot.line;
  return [
    file("plugin.json", json(manifest)),
    file("tools.json", json(tools)),
    file(
      "contract-line.json",
      json({ ...line, activeUi: Object.fromEntries(input.ui.map((u) => [u.name, u.uri])) }),
    ),
    ...input.skills.map((s) => ({ ...s, path: `skills/${s.path}` })),
    ...input.ui.map((u) => file(`ui/${u.name}/index.html`, u.html)),
  ];
}
