import { defineRule } from "../../diagnostics/rule.js";

/** Rules of the L12.1 manifest gate (`manifest-gate.check.ts`). */
export const MANIFEST_DISPLAY_NAME = defineRule({
  id: "MANIFEST_DISPLAY_NAME",
  family: "release",
  severity: "error",
  summary:
    "The display name is empty, longer than 30 characters, or differs between " +
    "plugin.json and the line (L1, L12.1).",
  message: {
    line: "release/line.json displayName {line:json} differs from {source:json}",
    length: "display name {name:json} has {length} characters (1–{max} allowed)",
  },
});
export const MANIFEST_PACKAGE_NAME = defineRule({
  id: "MANIFEST_PACKAGE_NAME",
  family: "release",
  severity: "error",
  summary:
    "The technical package name is permanent: it may never differ from what was " +
    "published (L1, L12.1).",
  message: {
    published: "{version} was published as {published}, now the package is {current}",
    permanent: "package name {name} differs from {permanent}",
  },
});
export const MANIFEST_SEMVER = defineRule({
  id: "MANIFEST_SEMVER",
  family: "release",
  severity: "error",
  summary:
    "Package SemVer is inconsistent across plugin.json, drafts, published " +
    "folders and the index (L2, L12.1).",
  message: {
    index: "index version {version:json} is not SemVer",
    order: "index lists {version} after {previous}; versions must ascend",
    published: "{dir}/package/plugin.json carries {manifest}, the index {version}",
    below: "packageVersion {version} is below the published {published}",
    draftName: "draft folder {name} is not <version>-SNAPSHOT",
    draft: "{dir}/package/plugin.json carries {manifest}, the folder {version}",
    version: "version {version:json} is not SemVer x.y.z",
  },
});
export const MANIFEST_VERSION_REUSED = defineRule({
  id: "MANIFEST_VERSION_REUSED",
  family: "release",
  severity: "error",
  summary: "packageVersion names a published version but the contract changed; bump it (L4, L6).",
  message:
    "packageVersion {version} is published, but the generated contract differs from it; bump packageVersion",
});
export const MANIFEST_ORIGIN = defineRule({
  id: "MANIFEST_ORIGIN",
  family: "release",
  severity: "error",
  summary:
    "MCP URL, OAuth resource, widget origin and metadata URL must share one " +
    "origin that never changes (L1, L12.1).",
  message: {
    moved: "{version} was published on {from}; a published plugin cannot move to {to}",
    field: "{field} is on {origin}, the MCP URL on {mcp}",
    audience: "the OAuth resource must be the MCP URL itself (one audience, no dual audience)",
    widget: "widgetOrigin must be exactly {origin}",
    metadata: "protectedResourceMetadataUrl must be {url} (RFC 9728 for the MCP URL)",
  },
});
