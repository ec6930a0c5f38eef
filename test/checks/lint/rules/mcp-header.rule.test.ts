import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { directoryProfiles } from "../../../../checks/lint/directory/directory-rule.js";
import { lintDirectory } from "../../../../checks/lint/directory/lint-directory.js";
import { lintContract } from "../../../../checks/lint/lint-contract.js";
import { parseContractDoc } from "../../../../contract-model/contract-doc.js";
import { repoRoot } from "../../../support/temp-project.js";

const dir = path.join(repoRoot, "test/fixtures/mcp-header");

/** The findings of `rule` in a fixture, as `pointer message`. */
async function findings(name: string, rule: string): Promise<string[]> {
  const json: unknown = JSON.parse(await readFile(path.join(dir, name), "utf8"));
  const problems: unknown[] = [];
  const doc = parseContractDoc(json, name, problems as never[]);
  assert.ok(doc && problems.length === 0, `${name}: ${JSON.stringify(problems)}`);
  return lintContract(doc)
    .filter((d) => d.ruleId === rule)
    .map((d) => `${d.location.pointer} ${d.message}`);
}
const at = (field: string) => `/tools/0/inputSchema${field}`;

describe("skillpilot lint: x-mcp-header as hosts keep it (MCP 2026-07-28 custom headers)", () => {
  it("GATE_MCP_HEADER_EMPTY: an empty or non-string header name", async () => {
    assert.deepEqual(await findings("empty.valid.json", "GATE_MCP_HEADER_EMPTY"), []);
    assert.deepEqual(await findings("empty.invalid.json", "GATE_MCP_HEADER_EMPTY"), [
      `${at("/properties/region/x-mcp-header")} query_region: input /properties/region has an ` +
        "empty x-mcp-header; hosts drop the tool",
      "/tools/1/inputSchema/properties/zone/x-mcp-header query_zone: input /properties/zone has " +
        "x-mcp-header 42, not a header name; hosts drop the tool",
    ]);
  });

  it("GATE_MCP_HEADER_NOT_TOKEN: a space, a colon, non-ASCII or a delimiter in the name; every tchar and a standard header's name are fine", async () => {
    assert.deepEqual(await findings("not-token.valid.json", "GATE_MCP_HEADER_NOT_TOKEN"), []);
    assert.deepEqual(
      (await findings("not-token.invalid.json", "GATE_MCP_HEADER_NOT_TOKEN")).map((f) =>
        f.replace(/, which is not an HTTP token \((.*)\).*/, " $1"),
      ),
      [
        `${at("/properties/a/x-mcp-header")} query_region: input /properties/a has x-mcp-header "My Region" " " is not allowed`,
        `${at("/properties/b/x-mcp-header")} query_region: input /properties/b has x-mcp-header "Region:Primary" ":" is not allowed`,
        `${at("/properties/c/x-mcp-header")} query_region: input /properties/c has x-mcp-header "Région" "é" is not allowed`,
        `${at("/properties/d/x-mcp-header")} query_region: input /properties/d has x-mcp-header "(Region)" "(" is not allowed`,
      ],
    );
  });

  it("GATE_MCP_HEADER_CONTROL_CHARACTER: CR/LF (header injection), a tab, DEL", async () => {
    assert.deepEqual(
      await findings("control-character.valid.json", "GATE_MCP_HEADER_CONTROL_CHARACTER"),
      [],
    );
    const found = await findings(
      "control-character.invalid.json",
      "GATE_MCP_HEADER_CONTROL_CHARACTER",
    );
    assert.deepEqual(
      found.map((f) => f.split(" ")[0]),
      ["a", "b", "c"].map((p) => at(`/properties/${p}/x-mcp-header`)),
    );
    assert.match(
      found[0],
      /"Region\\r\\nX-Injected: 1" with a control character; hosts drop the tool$/,
    );
    // A name with a control character is reported as that, not also as a bad token.
    assert.deepEqual(
      await findings("control-character.invalid.json", "GATE_MCP_HEADER_NOT_TOKEN"),
      [],
    );
  });

  it("GATE_MCP_HEADER_DUPLICATE: the same name twice in one tool, ignoring case, nested ones included; across tools is fine", async () => {
    assert.deepEqual(await findings("duplicate.valid.json", "GATE_MCP_HEADER_DUPLICATE"), []);
    assert.deepEqual(await findings("duplicate.invalid.json", "GATE_MCP_HEADER_DUPLICATE"), [
      `${at("/properties/shadow/x-mcp-header")} query_region: input /properties/shadow has ` +
        'x-mcp-header "REGION", which /properties/region already declares (header names ignore ' +
        "case); hosts drop the tool",
      `${at("/properties/target/properties/region/x-mcp-header")} query_region: input ` +
        '/properties/target/properties/region has x-mcp-header "region", which ' +
        "/properties/region already declares (header names ignore case); hosts drop the tool",
    ]);
  });

  it("GATE_MCP_HEADER_TYPE: number, array, object, null, a type list, or no type of its own ($ref, read as declared: hosts do not inline it)", async () => {
    assert.deepEqual(await findings("type.valid.json", "GATE_MCP_HEADER_TYPE"), []);
    assert.deepEqual(
      (await findings("type.invalid.json", "GATE_MCP_HEADER_TYPE")).map((f) =>
        f.replace(/^(\S+) query_region: input \S+ has x-mcp-header but (.*?);.*/, "$1 $2"),
      ),
      [
        `${at("/properties/linked")} states no type of its own (hosts follow no $ref or combinator to find one)`,
        `${at("/properties/maybe")} its type is ["string","null"]`,
        `${at("/properties/nothing")} its type is "null"`,
        `${at("/properties/ratio")} its type is "number"`,
        `${at("/properties/regions")} its type is "array"`,
        `${at("/properties/target")} its type is "object"`,
      ],
    );
  });

  it("GATE_MCP_HEADER_INTEGER_RANGE: an integer without bounds or with a bound beyond ±(2^53−1)", async () => {
    assert.deepEqual(
      await findings("integer-range.valid.json", "GATE_MCP_HEADER_INTEGER_RANGE"),
      [],
    );
    assert.deepEqual(
      (await findings("integer-range.invalid.json", "GATE_MCP_HEADER_INTEGER_RANGE")).map((f) =>
        f.replace(/ query_region: input \S+ is a mirrored integer (.*?), (so|which).*/, " $1"),
      ),
      [
        `${at("/properties/count")} with no lower bound`,
        `${at("/properties/count")} with no upper bound`,
        `${at("/properties/id")} whose lower bound -100000000000000000000 lies beyond ±(2^53−1)`,
        `${at("/properties/page")} with no upper bound`,
      ],
    );
  });

  it("GATE_MCP_HEADER_UNREACHABLE: under items, oneOf, additionalProperties, $defs behind a $ref, or on the root; nested properties are fine", async () => {
    assert.deepEqual(await findings("unreachable.valid.json", "GATE_MCP_HEADER_UNREACHABLE"), []);
    assert.deepEqual(
      (await findings("unreachable.invalid.json", "GATE_MCP_HEADER_UNREACHABLE")).map(
        (f) => f.split(" ")[0],
      ),
      [
        at("/$defs/Linked/x-mcp-header"),
        at("/properties/choice/oneOf/0/properties/zone/x-mcp-header"),
        at("/properties/extra/additionalProperties/x-mcp-header"),
        at("/properties/targets/items/properties/region/x-mcp-header"),
        at("/x-mcp-header"),
      ],
    );
  });

  it("a directory profile applies the header rules too: the directory's host would drop the tool", async () => {
    const json: unknown = JSON.parse(await readFile(path.join(dir, "empty.invalid.json"), "utf8"));
    const doc = parseContractDoc(json, "empty.invalid.json", []);
    assert.ok(doc);
    for (const profile of directoryProfiles)
      assert.deepEqual(
        lintDirectory(doc, profile, json)
          .filter((d) => d.ruleId === "GATE_MCP_HEADER_EMPTY")
          .map((d) => d.location.pointer),
        [
          at("/properties/region/x-mcp-header"),
          "/tools/1/inputSchema/properties/zone/x-mcp-header",
        ],
        profile,
      );
  });
});
