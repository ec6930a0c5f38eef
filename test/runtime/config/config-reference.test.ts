import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { buildProgram } from "../../../bin/program.js";
import { ENV_SETTINGS, OTLP_PROTOCOL_ENV } from "../../../runtime/config/config-env.js";
import { TEST_COMMIT_DELAY_ENV } from "../../../runtime/config/config.js";
import configSchema from "../../../runtime/config/config.schema.json" with { type: "json" };
import { repoRoot } from "../../support/temp-project.js";

const REFERENCE = "docs/deploy/configuration.md";

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  $ref?: string;
}

/** A `$ref` of the config schema (`#/$defs/Name`) resolved. */
function deref(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const name = node.$ref.replace("#/$defs/", "");
  return (configSchema.$defs as Record<string, SchemaNode>)[name];
}

/**
 * Every setting of the schema as the reference names it: nested objects by their keys
 * (`auth.issuer`), list entries as `[]` (`auth.clientProfiles[].name`), maps of free keys as
 * `<*>` (`lanePublicUrls.<*>`).
 */
function schemaSettings(node: SchemaNode, prefix = ""): string[] {
  const out: string[] = [];
  for (const [key, raw] of Object.entries(node.properties ?? {})) {
    const child = deref(raw);
    const at = `${prefix}${key}`;
    const entries = child.items && deref(child.items);
    if (child.properties) out.push(...schemaSettings(child, `${at}.`));
    else if (entries?.properties) out.push(...schemaSettings(entries, `${at}[].`));
    else if (typeof child.additionalProperties === "object")
      out.push(`${at}.<*>`, ...schemaSettings(deref(child.additionalProperties), `${at}.<*>.`));
    else out.push(at);
  }
  return out;
}

interface Row {
  key: string;
  env: string;
  flag: string;
}

/** The rows of the reference's settings table, a `<name>` part written `<*>`. */
async function referenceRows(): Promise<{ rows: Row[]; text: string }> {
  const text = await readFile(path.join(repoRoot, REFERENCE), "utf8");
  const section = text.slice(
    text.indexOf("## Settings"),
    text.indexOf("\n## ", text.indexOf("## Settings") + 1),
  );
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [key, env, flag] = line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim());
      return { key: key.replace(/`/g, "").replace(/<[^>]+>/g, "<*>"), env, flag };
    });
  return { rows, text };
}

/** The row of the setting a JSON pointer sets, or of a map entry it matches. */
function rowsOf(rows: readonly Row[], pointer: string): Row[] {
  const dotted = pointer.slice(1).replace(/\//g, ".");
  return rows.filter((row) => {
    const pattern = new RegExp(
      `^${row.key.replace(/[.[\]$]/g, "\\$&").replace(/<\\\*>|<\*>/g, "[^.]+")}$`,
    );
    return pattern.test(dotted) || row.key.startsWith(`${dotted}.`);
  });
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

describe("the deployment guide's configuration reference (docs/deploy/configuration.md)", () => {
  it("names every setting of the config schema, and no setting the schema lacks", async () => {
    const { rows } = await referenceRows();
    const documented = rows.map((r) => r.key);
    const settings = schemaSettings(configSchema as SchemaNode);
    assert.ok(settings.includes("auth.signIn.clientId") && settings.includes("lanePublicUrls.<*>"));
    assert.deepEqual(
      settings.filter((s) => !documented.includes(s)),
      [],
      `settings of runtime/config/config.schema.json missing from ${REFERENCE}`,
    );
    assert.deepEqual(
      documented.filter((d) => !settings.includes(d)),
      [],
      `rows of ${REFERENCE} that are no setting of the schema`,
    );
    assert.equal(new Set(documented).size, documented.length, "a setting documented twice");
  });

  it("names each environment variable on the row of the setting it sets, and no other", async () => {
    const { rows, text } = await referenceRows();
    const settings = [...ENV_SETTINGS, ...OTLP_PROTOCOL_ENV];
    for (const [name, pointer] of settings) {
      const candidates = rowsOf(rows, pointer);
      assert.ok(candidates.length > 0, `${name}: no row for ${pointer}`);
      assert.ok(
        candidates.some((row) => backticked(row.env).includes(name)),
        `${name} is not named on the row of ${pointer}`,
      );
    }
    const known = new Set(settings.map(([name]) => name));
    const named = rows.flatMap((row) => backticked(row.env));
    assert.deepEqual(
      named.filter((name) => !known.has(name)),
      [],
      "environment variables the configuration does not read",
    );
    assert.match(text, new RegExp(`\`${TEST_COMMIT_DELAY_ENV}\``), "the test-only variable");
  });

  it("names every flag of `skillpilot start`: settings on their row, the others apart", async () => {
    const { rows, text } = await referenceRows();
    const start = buildProgram().commands.find((c) => c.name() === "start");
    assert.ok(start);
    const flags = start.options.map((o) => ({ long: o.long ?? "", setting: o.attributeName() }));
    assert.ok(flags.length >= 4);
    for (const { long, setting } of flags) {
      const row = rows.find((r) => r.key === setting);
      if (row)
        assert.ok(backticked(row.flag).includes(long), `${long} is not on the ${setting} row`);
      else assert.match(text, new RegExp(`^\\| \`${long}\` \\|`, "m"), `${long} is not described`);
    }
    const longs = new Set(flags.map((f) => f.long));
    assert.deepEqual(
      rows.flatMap((r) => backticked(r.flag)).filter((flag) => !longs.has(flag)),
      [],
      "flags `skillpilot start` does not have",
    );
  });
});
