import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listRetainedUi } from "../../contract-model/ui/ui-store.js";
import { retainedUiPath, uiUri } from "../../contract-model/ui/ui-uri.js";
import { eras } from "../runtime/support/mcp-clients.js";
import { repoRoot, startFixture, useServedClient } from "../runtime/support/runtime-fixture.js";

const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * A published page of an earlier release: kept under contracts/ui/, no longer bound by any
 * descriptor.
 */
const OLD_PAGE =
  "<!doctype html>\n<html><body><p>goal visualization, release 1.0</p></body></html>\n";

for (const era of eras) {
  describe(`UI resources served from the map built at boot, ${era} (L10)`, () => {
    let root: string;
    const oldUri = uiUri(1, sha256(OLD_PAGE));

    const served = useServedClient(era, async () => {
      // A project root with the repository's contract, curriculum and line, and a copy of its UI
      // store (the active pages) plus one page published by an earlier release.
      root = await mkdtemp(path.join(tmpdir(), "skillpilot-ui-root-"));
      for (const dir of ["schemas", "curricula", "release"])
        await symlink(path.join(repoRoot, dir), path.join(root, dir));
      await cp(path.join(repoRoot, "contracts/ui"), path.join(root, "contracts/ui"), {
        recursive: true,
      });
      const retained = path.join(root, retainedUiPath(oldUri)!);
      await mkdir(path.dirname(retained), { recursive: true });
      await writeFile(retained, OLD_PAGE);
      return startFixture({}, undefined, root);
    });
    after(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it("refuses to start when an active page is missing from the UI store (L10)", async () => {
      const bare = await mkdtemp(path.join(tmpdir(), "skillpilot-ui-bare-"));
      try {
        for (const dir of ["schemas", "curricula", "release"])
          await symlink(path.join(repoRoot, dir), path.join(bare, dir));
        await assert.rejects(startFixture({}, undefined, bare), /not in the UI store/);
      } finally {
        await rm(bare, { recursive: true, force: true });
      }
    });

    it(
      "lists the retained published URI next to the active ones and serves it " + "byte for byte",
      async () => {
        const activeUi = JSON.parse(
          await readFile(path.join(repoRoot, "release/line.json"), "utf8"),
        ).activeUi as Record<string, string>;
        const { resources } = await served.client.listResources();
        const retained = await listRetainedUi(repoRoot);
        assert.deepEqual(
          resources.map((r) => r.uri).sort(),
          [...new Set([...Object.values(activeUi), ...retained, oldUri])].sort(),
        );
        const listed = resources.find((r) => r.uri === oldUri)!;
        assert.equal(listed.mimeType, "text/html;profile=mcp-app");
        const { contents } = await served.client.readResource(oldUri);
        assert.equal(contents[0].text, OLD_PAGE);
        assert.equal(contents[0].mimeType, "text/html;profile=mcp-app");
      },
    );

    it(
      "answers an unknown well-formed ui:// URI as not found, even when a " +
        "source added after boot would build to it",
      async () => {
        // A new page added to the sources after start: a per-request rebuild would find and serve
        // it.
        const later = "<!doctype html>\n<html><body><p>added after boot</p></body></html>\n";
        await mkdir(path.join(root, "ui", "added-later"), { recursive: true });
        await writeFile(path.join(root, "ui", "added-later", "index.html"), later);
        await assert.rejects(served.client.readResource(uiUri(1, sha256(later))));
        await assert.rejects(served.client.readResource(uiUri(1, "0".repeat(64))));
        // The pages known at boot are still served.
        assert.equal((await served.client.readResource(oldUri)).contents[0].text, OLD_PAGE);
      },
    );
  });
}
