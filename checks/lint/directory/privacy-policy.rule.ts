import { defineRule } from "../../../diagnostics/rule.js";
import { isObject } from "../../../json-schema/walk.js";
import { directoryRule } from "./directory-rule.js";

/** Both directories publish a privacy policy link; it lives in plugin.json `directory`. */
export const privacyPolicyUrl = directoryRule(
  defineRule({
    id: "DIRECTORY_PRIVACY_POLICY_MISSING",
    family: "lint",
    severity: "error",
    summary: "plugin.json names a public https privacy policy URL (directory.privacyPolicyUrl).",
    message:
      "the plugin names no https privacy policy URL; set directory.privacyPolicyUrl in schemas/plugin.json",
  }),
  ["openai-directory", "claude-directory"],
  (_tools, doc, ctx, report) => {
    if (doc.format !== "snapshot") return;
    const listing = isObject(ctx.plugin?.directory) ? ctx.plugin.directory : {};
    const url = listing.privacyPolicyUrl;
    if (typeof url !== "string" || !/^https:\/\/[^/]+\//.test(url))
      report({}, { file: doc.file, pointer: "/plugin" });
  },
);
