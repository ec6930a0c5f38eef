import { listingChanges } from "../../../../checks/diff/rules/directory-listing.rule.js";
import { proveByCorpus } from "./support/corpus-proof.js";

// Each rule of checks/diff/rules/directory-listing.rule.ts, proven by the corpus cases it names
// (test/fixtures/diff-corpus/<case>): the case it fires on and the nearest one it stays quiet on.
describe("Contract-Diff, the directory listing: LISTING_CHANGED", () => {
  proveByCorpus(listingChanges, [
    {
      rule: "LISTING_CHANGED",
      severity: "note",
      fires: "listing-description-changed",
      pointer: "/plugin/directory/description",
      message: /listing directory\/description changed/,
      quiet: "guard-skills-listing-absent-before",
    },
  ]);
});
