import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { listContractLines, servedLines } from "../../contract-model/release/contract-lines.js";
import { providerLanes } from "../../generated/identity.gen.js";
import { validateContractLine } from "../../generated/validators.gen.js";
import { eras } from "../runtime/support/mcp-clients.js";
import {
  repoRoot,
  type RuntimeFixture,
  startFixture,
  useServedClient,
} from "../runtime/support/runtime-fixture.js";
import { contractV2 } from "../fixtures/contract-v2/contract.js";
import { type ContractUnderTest, contractOf, lineChecks } from "./contract-matrix/line-checks.js";

/**
 * The contract-test matrix (L12.4): every non-RETIRED contract line of the repository
 * (`release/line.json` and each `release/lines/<name>.json`) is a column, run against a real server
 * serving that line, in both protocol eras; every check of `lineChecks` is a row. A line added under
 * release/ adds its column here with no test edits.
 */
const columns = servedLines(repoRoot);

describe("contract-test matrix: the repository's lines (L12.4)", () => {
  it("has at least the line in force, and every served line is valid contract-line/v1", () => {
    assert.ok(columns.some((c) => c.file === "release/line.json"));
    for (const c of columns)
      assert.equal(
        validateContractLine(c.line),
        true,
        `${c.file}: ${JSON.stringify(validateContractLine.errors)}`,
      );
  });

  it("discovers a line added under release/lines/ and leaves RETIRED lines out", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "skillpilot-lines-"));
    try {
      await mkdir(path.join(root, "release/lines"), { recursive: true });
      const line = { contractMajor: 1, policyRevision: 1, supportLifecycle: "CURRENT" };
      await writeFile(path.join(root, "release/line.json"), JSON.stringify(line));
      await writeFile(
        path.join(root, "release/lines/v0.json"),
        JSON.stringify({ ...line, supportLifecycle: "RETIRED" }),
      );
      await writeFile(
        path.join(root, "release/lines/v2.json"),
        JSON.stringify({ ...line, contractMajor: 2, supportLifecycle: "SUPPORTED" }),
      );
      assert.deepEqual(
        listContractLines(root).map((l) => l.file),
        ["release/line.json", "release/lines/v0.json", "release/lines/v2.json"],
      );
      assert.deepEqual(
        servedLines(root).map((l) => l.file),
        ["release/line.json", "release/lines/v2.json"],
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

/**
 * One column: a line file, the project root whose contract serves it, the server to use and, for
 * a provider lane's column, the lane it is reached through (else its major's internal adapter).
 */
interface Column {
  file: string;
  line: Record<string, unknown>;
  root: string;
  start: () => Promise<RuntimeFixture>;
  lane?: string;
}

const major = (line: Record<string, unknown> | undefined) => Number(line?.contractMajor);
const describeColumn = (column: Column, era: (typeof eras)[number], title: string) =>
  describe(
    `contract-test matrix: ${title} (contract major ${String(column.line.contractMajor)}, ` +
      `policyRevision ${String(column.line.policyRevision)}, ` +
      `${String(column.line.newSessionPolicy)}) × ${era} (L12.4)`,
    () => {
      const path = `/internal/openai/v${major(column.line)}/mcp`;
      const served = useServedClient(era, column.start, path, column.lane);
      const endpoint = () => {
        const { settings } = served.fx.services.auth;
        const lane = settings.lanes.find((l) => l.id === column.lane);
        return lane
          ? { path: lane.mcpPath, auth: { resource: lane.resource, atConnect: lane.atConnect } }
          : { path, auth: { resource: settings.resource, atConnect: false } };
      };
      let contract: ContractUnderTest;
      before(async () => {
        contract = await contractOf(column.root);
      });
      for (const check of lineChecks)
        it(check.name, () =>
          check.run({
            file: column.file,
            line: column.line,
            era,
            fx: served.fx,
            client: served.client,
            mcpUrl: `${served.fx.server.origin}${endpoint().path}`,
            auth: endpoint().auth,
            ...(column.lane && { lane: column.lane }),
            contract,
          }),
        );
    },
  );

// The repository's own lines, each served by a server running that line.
for (const c of columns)
  for (const era of eras)
    describeColumn(
      {
        file: c.file,
        line: c.line ?? {},
        root: repoRoot,
        start: () => startFixture({ lineFile: path.join(repoRoot, c.file) }),
      },
      era,
      c.file,
    );

// The line in force through each provider lane of schemas/lanes.json (§6: a pass on one lane
// says nothing of another, so each lane is its own column): its public path, its own OAuth
// resource, and its way of starting OAuth.
for (const lane of providerLanes)
  for (const era of eras)
    describeColumn(
      {
        file: "release/line.json",
        line: JSON.parse(readFileSync(path.join(repoRoot, "release/line.json"), "utf8")),
        root: repoRoot,
        start: () => startFixture(),
        lane: lane.id,
      },
      era,
      `lane ${lane.id} (${lane.mcpPath}), release/line.json`,
    );

// Two contract majors on one server (the v2 fixture beside this contract): one column per line,
// each against its own major's internal adapter.
const v2Root = path.join(repoRoot, "test/fixtures/contract-v2");
const v2LineFile = path.join(v2Root, "release/line.json");
const twoMajors: Column[] = [
  { file: "release/line.json", root: repoRoot },
  { file: "test/fixtures/contract-v2/release/line.json", root: v2Root },
].map((c) => ({
  ...c,
  line: JSON.parse(readFileSync(path.join(repoRoot, c.file), "utf8")) as Record<string, unknown>,
  start: () => startFixture({}, { contracts: [contractV2(v2LineFile)] }),
}));
for (const c of twoMajors)
  for (const era of eras) describeColumn(c, era, `two majors on one server, ${c.file}`);
