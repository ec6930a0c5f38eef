import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../../diagnostics/diagnostic.js";
import { verifyRelease } from "../../../release/verify/verify.js";
import { useProjectCopies } from "../support/temp-project.js";

const INDEX = "contracts/release-index.json";

const indexFindings = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => d.ruleId === "RELEASE_INDEX_INVALID")
    .map((d) => [d.severity, d.location, d.message]);

const writeIndex = (root: string, text: string) => writeFile(path.join(root, INDEX), text);

describe("release/verify/verify.ts: the release index verify starts from (L4)", function () {
  this.timeout(120_000);
  const root = useProjectCopies();

  describe("RELEASE_INDEX_INVALID", () => {
    it("L4: fails an index that is not JSON, and checks nothing else", async () => {
      await writeIndex(root(), '{ "indexFormat": ');
      const found = await verifyRelease(root());
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.deepEqual(
        indexFindings(found).map(([severity, location]) => [severity, location]),
        [["error", { file: INDEX }]],
      );
      assert.match(found[0].message, /^contracts\/release-index\.json: .*JSON/);
    });

    it("L4: fails an index of releases in another format", async () => {
      await writeIndex(
        root(),
        JSON.stringify({
          indexFormat: "skillpilot-release-index/0",
          releases: [{ version: "1.1.3" }],
        }),
      );
      assert.deepEqual(indexFindings(await verifyRelease(root())), [
        [
          "error",
          { file: INDEX },
          'contracts/release-index.json has format "skillpilot-release-index/0", expected ' +
            "skillpilot-release-index/1",
        ],
      ]);
    });

    it("L4: stays quiet on an index in the current format, and on none yet", async () => {
      await rm(path.join(root(), INDEX), { force: true });
      assert.deepEqual(indexFindings(await verifyRelease(root())), []);
      await writeIndex(
        root(),
        JSON.stringify({ indexFormat: "skillpilot-release-index/1", releases: [] }),
      );
      assert.deepEqual(indexFindings(await verifyRelease(root())), []);
    });
  });
});
