import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { errorTable, localizeError } from "../../runtime/error-table.js";
import { repoRoot } from "./support/runtime-fixture.js";

describe("error table (C3, C14)", () => {
  it("covers exactly the ErrorCode enum of the contract", async () => {
    const schema = JSON.parse(
      await readFile(path.join(repoRoot, "schemas/envelopes/error.schema.json"), "utf8"),
    ) as { properties: { code: { enum: string[] } } };
    assert.deepEqual(Object.keys(errorTable).sort(), [...schema.properties.code.enum].sort());
  });

  it("has an en and a de message and recovery for every code, within the envelope limits", () => {
    for (const [code, entry] of Object.entries(errorTable))
      for (const locale of ["en", "de"] as const) {
        const text = entry[locale];
        assert.ok(text.message.length > 0 && text.message.length <= 500, `${code} ${locale}`);
        assert.ok(text.recovery.length > 0 && text.recovery.length <= 1000, `${code} ${locale}`);
      }
    assert.notEqual(errorTable.STATE_CONFLICT.de.recovery, errorTable.STATE_CONFLICT.en.recovery);
  });

  it("ends every session error with the first-party start instruction", () => {
    const launchUrl = "https://skillpilot.com/start";
    for (const code of [
      "SESSION_NOT_FOUND",
      "SESSION_EXPIRED",
      "SESSION_VERSION_UNAVAILABLE",
    ] as const)
      for (const locale of ["en", "de"] as const) {
        const sentences = localizeError(code, locale, { launchUrl }).recovery.split(/(?<=\.) /);
        assert.ok(sentences[sentences.length - 1].includes(launchUrl), `${code} ${locale}`);
      }
  });

  it("is documented: docs/runtime.md has a row with the English texts of every code", async () => {
    const doc = await readFile(path.join(repoRoot, "docs/runtime.md"), "utf8");
    for (const [code, entry] of Object.entries(errorTable))
      assert.ok(
        doc.includes(
          `| \`${code}\` | ${entry.httpStatus} | ${entry.session ? "yes" : "no"} ` +
            `| ${entry.en.message} | ${entry.en.recovery} |`,
        ),
        code,
      );
  });
});
