import assert from "node:assert/strict";
import { cliVerify, commitAll, useProjectCopies } from "../support/temp-project.js";

describe("verify --since: a baseline that names no commit is a usage error (L4, L11)", function () {
  this.timeout(60000);
  const project = useProjectCopies();

  it("exits 2 on a ref that is no commit, or no git: prefix, in every format; a real one passes", () => {
    const root = project();
    commitAll(root, "baseline");
    for (const since of ["git:nosuchref", "git:HEAD~5", "git:--output=/tmp/x", "HEAD"]) {
      const text = cliVerify(root, "--since", since);
      assert.equal(text.status, 2, `${since}: ${text.output}`);
      assert.match(text.output, /VERIFY_SINCE_INVALID/);
      const json = cliVerify(root, "--since", since, "--format", "json");
      assert.equal(json.status, 2);
      const doc = JSON.parse(json.output.slice(0, json.output.lastIndexOf("}") + 1)) as {
        diagnostics: { ruleId: string; location: { file: string } }[];
      };
      assert.deepEqual(
        doc.diagnostics.map((d) => [d.ruleId, d.location.file]),
        [["VERIFY_SINCE_INVALID", "--since"]],
      );
    }
    const ok = cliVerify(root, "--since", "git:HEAD");
    assert.equal(ok.status, 0, ok.output);
  });
});
