import { isObject } from "../json-schema/schema-facts.js";

/** What a contract side says about its skills and its directory listing, where it says it. */
export interface SkillsAndListing {
  /**
   * Skill name → its files (`SKILL.md`, `references/…`) → `sha256:<hex>`; absent when the document
   * carries no skills tree (a tools/list result, a snapshot older than the field).
   */
  skills?: Map<string, Record<string, string>>;
  /**
   * The listing's text and images by field (`displayName`, `icons`, `directory/description`, …);
   * absent when the document carries no directory listing.
   */
  listing?: Map<string, unknown>;
}

/**
 * Read the skills tree (`skills`) and the listing fields (`plugin.displayName`, `plugin.icons`,
 * every `plugin.directory` field) of a snapshot body. A side without them has nothing to compare.
 */
export function skillsAndListingOf(body: unknown): SkillsAndListing {
  if (!isObject(body)) return {};
  const out: SkillsAndListing = {};
  if (isObject(body.skills)) {
    out.skills = new Map();
    for (const [name, skill] of Object.entries(body.skills))
      if (isObject(skill) && isObject(skill.files))
        out.skills.set(
          name,
          Object.fromEntries(Object.entries(skill.files).map(([f, h]) => [f, String(h)])),
        );
  }
  const plugin = body.plugin;
  if (isObject(plugin) && isObject(plugin.directory)) {
    out.listing = new Map<string, unknown>([
      ["displayName", plugin.displayName],
      ["icons", plugin.icons],
      ...Object.entries(plugin.directory).map(([k, v]) => [`directory/${k}`, v] as const),
    ]);
    for (const [k, v] of out.listing) if (v === undefined) out.listing.delete(k);
  }
  return out;
}
