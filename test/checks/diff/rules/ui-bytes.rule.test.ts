import { uiBytes } from "../../../../checks/diff/rules/ui-bytes.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/ui-bytes.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, the bytes of served UI resources: UI_IMMUTABLE_BYTES_CHANGED, UI_SERVED_URI_MISSING", () => {
  proveByCorpus(uiBytes, [
    {
      rule: "UI_IMMUTABLE_BYTES_CHANGED",
      severity: "error",
      fires: "ui-bytes-changed",
      pointer:
        "/ui/ui://demo/goal/sha256-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/index.html",
      message: /changed \(published sha256 a{12}…, now c{12}…\); publish the change under a new/,
      quiet: "ui-uri-rotated",
    },
    {
      rule: "UI_SERVED_URI_MISSING",
      severity: "error",
      fires: "ui-served-uri-missing",
      pointer:
        "/ui/ui://demo/goal/sha256-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/index.html",
      message: /was served \(bound by render_goal in .*\) but the new side no longer serves it/,
      quiet: "ui-uri-rotated",
    },
  ]);
});
