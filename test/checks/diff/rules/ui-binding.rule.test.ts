import { uiBindingChanges } from "../../../../checks/diff/rules/ui-binding.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/ui-binding.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, UI bindings: UI_BINDING_REMOVED, UI_BINDING_ADDED, UI_BINDING_CHANGED, UI_VISIBILITY_CHANGED, UI_URI_ROTATED, UI_RESOURCE_ADDED", () => {
  proveByCorpus(uiBindingChanges, [
    {
      rule: "UI_BINDING_REMOVED",
      severity: "error",
      fires: "ui-binding-removed",
      pointer: "/tools/render_goal/_meta/ui/resourceUri",
      message: /render_goal: UI binding ui:\/\/demo\/goal\//,
      quiet: "ui-uri-rotated",
    },
    {
      rule: "UI_BINDING_ADDED",
      severity: "note",
      fires: "ui-binding-added",
      pointer: "/tools/get_context/_meta/ui/resourceUri",
      message: /get_context: now binds UI ui:\/\/demo\/goal\//,
      quiet: "ui-resource-added",
    },
    {
      rule: "UI_BINDING_CHANGED",
      severity: "error",
      fires: "ui-binding-changed",
      pointer: "/tools/render_goal/_meta/ui/resourceUri",
      message: /render_goal: UI binding changed ui:\/\/demo\/goal\//,
      quiet: "ui-uri-rotated",
    },
    {
      rule: "UI_VISIBILITY_CHANGED",
      severity: "error",
      fires: "ui-visibility-changed",
      pointer: "/tools/review_card/_meta/ui/visibility",
      message: /review_card: visibility \["app"\] → \["app","model"\]/,
      quiet: "ui-binding-added",
    },
    {
      rule: "UI_URI_ROTATED",
      severity: "note",
      fires: "ui-uri-rotated",
      pointer: "/tools/render_goal/_meta/ui/resourceUri",
      message: /render_goal: UI moved to ui:\/\/demo\/goal\/sha256-bbbb/,
      quiet: "ui-binding-changed",
    },
    {
      rule: "UI_RESOURCE_ADDED",
      severity: "note",
      fires: "ui-resource-added",
      pointer: "/tools/start_practice/_meta/ui/resourceUri",
      message: /new UI resource ui:\/\/demo\/practice\//,
      quiet: "ui-uri-rotated",
    },
  ]);
});
