import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import { closest } from "fastest-levenshtein";
import { findNodeAtLocation, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { createAjv } from "../../json-schema/ajv.js";
import configSchema from "./config.schema.json" with { type: "json" };
import { StartupError } from "./startup-error.js";

/** Every key a config file may set. */
export const configKeys: readonly string[] = Object.keys(configSchema.properties).filter(
  (k) => k !== "$schema",
);

let validate: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

/** 1-based line:column of a byte offset in `text`. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

/**
 * Where in the file an Ajv error points, as `line:col`: the offending value, or for an unknown key
 * the key itself.
 */
function locate(text: string, error: ErrorObject): string {
  const tree = parseTree(text);
  const segments: (string | number)[] = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const unknownKey = error.keyword === "additionalProperties";
  if (unknownKey) segments.push(String(error.params.additionalProperty));
  const node = tree && findNodeAtLocation(tree, segments);
  const at = unknownKey ? node?.parent : node;
  return at ? lineColumn(text, at.offset) : "1:1";
}

/** What the schema's URL patterns ask for, in words (Ajv would quote the regular expression). */
const patternWords: Readonly<Record<string, string>> = {
  "^postgres(ql)?://": "must be a postgres:// or postgresql:// URL",
  "^https?://": "must be an http(s) URL",
  "^https?://[^/]": "must be an http(s) URL",
  "^https?://[^/]+$": "must be an exact origin like https://coach.example.com",
};

/** What a schema violation asks for, with the value given: `must be … (got …)`. */
export function violation(error: ErrorObject, value: unknown): string {
  const got = value === undefined ? "" : ` (got ${JSON.stringify(value)})`;
  const allowed = error.keyword === "enum" ? (error.params.allowedValues as unknown[]) : undefined;
  const pattern = error.keyword === "pattern" ? String(error.params.pattern) : undefined;
  const message = allowed
    ? `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`
    : ((pattern && patternWords[pattern]) ?? error.message ?? error.keyword);
  return `${message}${got}`;
}

/** One line a person can act on, for one schema violation. */
function describe(text: string, error: ErrorObject, value: unknown): string {
  if (error.keyword === "additionalProperties") {
    const key = String(error.params.additionalProperty);
    const known = error.instancePath === "" ? configKeys : undefined;
    const hint = known ? ` (did you mean "${closest(key, [...known])}"?)` : "";
    return `${locate(text, error)} unknown key "${key}"${hint}`;
  }
  return `${locate(text, error)} ${error.instancePath || "/"} ${violation(error, value)}`;
}

/**
 * The configuration schema's violations in `doc` (empty when valid): the one check for settings
 * from a config file and from the environment.
 */
export function schemaErrors(doc: unknown): readonly ErrorObject[] {
  validate ??= createAjv({ allErrors: true, strict: false }).compile(configSchema);
  return validate(doc) ? [] : [...(validate.errors ?? [])];
}

/** The value at a JSON pointer of `doc`, or undefined. */
export const valueAt = (doc: unknown, pointer: string): unknown =>
  pointer
    .split("/")
    .slice(1)
    .reduce<unknown>(
      (node, key) =>
        node && typeof node === "object"
          ? (node as Record<string, unknown>)[key.replace(/~1/g, "/").replace(/~0/g, "~")]
          : undefined,
      doc,
    );

/**
 * Read and validate a config file against the configuration's JSON Schema. A missing default file
 * is no configuration; a missing explicit file, broken JSON, unknown keys and wrong types are
 * `StartupError`s that name the file, the line and what to change.
 */
export async function readConfigFile(
  abs: string,
  explicit: boolean,
): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(abs, "utf8");
  } catch (error) {
    if (!explicit && (error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new StartupError(
      "CONFIG_UNREADABLE",
      `cannot read the config file ${abs} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    const at = first ? lineColumn(text, first.offset) : "1:1";
    const what = first ? printParseErrorCode(first.error) : "empty file";
    throw new StartupError(
      "CONFIG_INVALID",
      `${path.basename(abs)}:${at}: not valid JSON (${what}) in ${abs}`,
    );
  }
  const doc = JSON.parse(text) as unknown;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new StartupError("CONFIG_INVALID", `${abs}: expected a JSON object of settings`);
  const violations = schemaErrors(doc);
  if (violations.length > 0) {
    const problems = violations.map((e) => describe(text, e, valueAt(doc, e.instancePath)));
    throw new StartupError(
      "CONFIG_INVALID",
      `${abs} is not a valid configuration:\n` +
        problems.map((p) => `  ${path.basename(abs)}:${p}`).join("\n"),
    );
  }
  return doc as Record<string, unknown>;
}
