import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  catalogs,
  fillPlaceholders,
  isLocale,
  locales,
  type Messages,
  placeholdersOf,
} from "../../../runtime/i18n/index.js";
import { repoRoot } from "../support/runtime-fixture.js";

/** Every text of a catalog by its path (`errors.STATE_CONFLICT.recovery`), in catalog order. */
function textsOf(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value))
      for (const [p, text] of textsOf(inner, prefix ? `${prefix}.${key}` : key)) out.set(p, text);
  else out.set(prefix, value);
  return out;
}

const english = textsOf(catalogs.en);

describe("message catalogs, one per language (C3)", () => {
  it("has a catalog for exactly the contract's CommunicationLocale values", async () => {
    const schema = JSON.parse(
      await readFile(path.join(repoRoot, "schemas/envelopes/common.schema.json"), "utf8"),
    ) as { $defs: { Locale: { title: string; enum: string[] } } };
    assert.equal(schema.$defs.Locale.title, "CommunicationLocale");
    assert.deepEqual([...locales].sort(), [...schema.$defs.Locale.enum].sort());
    assert.equal(locales[0], "en");
    for (const locale of locales) assert.ok(isLocale(locale));
    for (const other of ["fr", "EN", "", "toString", "__proto__", 1, undefined]) {
      assert.equal(isLocale(other), false, String(other));
    }
  });

  for (const locale of locales) {
    const texts = textsOf(catalogs[locale]);

    it(`${locale}: has exactly the English keys, each a non-empty text`, () => {
      assert.deepEqual([...texts.keys()], [...english.keys()]);
      for (const [key, text] of texts) {
        assert.equal(typeof text, "string", `${locale} ${key}`);
        assert.ok((text as string).trim().length > 0, `${locale} ${key} is empty`);
        assert.equal(text, (text as string).trim(), `${locale} ${key} has outer whitespace`);
      }
    });

    it(`${locale}: uses the same placeholders as English in every text`, () => {
      for (const [key, text] of texts)
        assert.deepEqual(
          placeholdersOf(text as string),
          placeholdersOf(english.get(key) as string),
          `${locale} ${key}`,
        );
    });
  }

  it("German is translated: no German text is the English one", () => {
    const german = textsOf(catalogs.de);
    const same = [...german].filter(([key, text]) => english.get(key) === text).map(([k]) => k);
    assert.deepEqual(same, []);
  });
});

describe("placeholders", () => {
  it("fills each {name} once, inserting values verbatim", () => {
    assert.equal(
      fillPlaceholders("{a} and {b}, {a} again; {missing} stays", { a: "$& {b}", b: 2 }),
      "$& {b} and 2, $& {b} again; {missing} stays",
    );
  });

  it("lists the names a text uses, sorted, each once", () => {
    assert.deepEqual(placeholdersOf("{b} {a} {b} {not a name}"), ["a", "b"]);
    assert.deepEqual(placeholdersOf("none"), []);
  });
});

describe("catalog types", () => {
  it("a catalog missing a text is a compile error (checked by the typecheck)", () => {
    const { title: _dropped, ...startPage } = catalogs.de.startPage;
    // @ts-expect-error startPage.title is missing
    const incomplete: Messages = { ...catalogs.de, startPage };
    assert.equal("title" in incomplete.startPage, false);
  });
});
