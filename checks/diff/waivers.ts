import { readFile } from "node:fs/promises";
import type { ValidateFunction } from "ajv";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { jsonError } from "../../diagnostics/json-error.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import fingerprintRenames from "./fingerprint-renames.json" with { type: "json" };
import waiverSchema from "./waivers.schema.json" with { type: "json" };
import { projectLayout } from "../../contract-model/project/project-layout.js";

/** One accepted finding. */
export interface Waiver {
  fingerprint: string;
  ruleId?: string;
  reason: string;
  approver: string;
  /** Last day (UTC, inclusive) the waiver applies: `YYYY-MM-DD`. */
  expires: string;
}

const WAIVER_FILE_INVALID = defineRule({
  id: "WAIVER_FILE_INVALID",
  family: "diff",
  severity: "error",
  summary: "The waiver file is not valid JSON or does not match its schema.",
  message: {
    missing: "{file} not found",
    notJson: "{file} is not valid JSON: {error}",
    schema: "{file}: {error}",
  },
});
export const WAIVER_EXPIRED = defineRule({
  id: "WAIVER_EXPIRED",
  family: "diff",
  severity: "error",
  summary: "A waiver is past its expiry date; renew it with a new approval or fix the finding.",
  message: "waiver {waiver}… ({rule}, approved by {approver}) expired on {expires}",
});
export const WAIVER_UNUSED = defineRule({
  id: "WAIVER_UNUSED",
  family: "diff",
  severity: "error",
  summary: "A waiver matches no finding; remove it so it cannot hide a future change.",
  message: "waiver {waiver}… ({rule}) matches no finding",
});
export const WAIVER_NOT_ALLOWED = defineRule({
  id: "WAIVER_NOT_ALLOWED",
  family: "diff",
  severity: "error",
  summary: "A waiver targets a finding that can never be waived (e.g. changed UI bytes).",
  message: "waiver {waiver}… targets {rule}, which cannot be waived",
});

/** Default location of the waiver file. */
export const defaultWaiverFile = projectLayout.waiversFile;

/**
 * The waiver schema's validator, compiled on first use: most diffs read no waiver file, and Ajv
 * with its meta-schemas is the largest thing the diff would otherwise load and compile at start.
 */
let validator: Promise<typeof import("../../json-schema/ajv.js") & { validate: ValidateFunction }>;
const waiverValidator = () =>
  (validator ??= import("../../json-schema/ajv.js").then((ajv) => ({
    ...ajv,
    validate: ajv.createAjv().compile(waiverSchema),
  })));

/** Read and validate a waiver file; a missing default file means "no waivers". */
export async function readWaivers(
  abs: string,
  file: string,
  required: boolean,
): Promise<{ waivers: Waiver[]; diagnostics: Diagnostic[] }> {
  const text = await readFile(abs, "utf8").catch(() => undefined);
  if (text === undefined)
    return {
      waivers: [],
      diagnostics: required
        ? [diagnose(WAIVER_FILE_INVALID, { variant: "missing", file }, { file })]
        : [],
    };
  return await parseWaivers(text, file);
}

/** Validate waiver JSON text against `waivers.schema.json`. */
export async function parseWaivers(
  text: string,
  file: string,
): Promise<{ waivers: Waiver[]; diagnostics: Diagnostic[] }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const why = jsonError(text);
    return {
      waivers: [],
      diagnostics: [
        diagnose(
          WAIVER_FILE_INVALID,
          { variant: "notJson", file, error: why?.message ?? "not JSON" },
          { file, ...(why && { line: why.line, column: why.column }) },
        ),
      ],
    };
  }
  const { validate, ajvErrorMessage, ajvErrorPointer } = await waiverValidator();
  if (!validate(json))
    return {
      waivers: [],
      diagnostics: (validate.errors ?? []).map((e) =>
        diagnose(
          WAIVER_FILE_INVALID,
          { variant: "schema", file, error: ajvErrorMessage(e) },
          { file, pointer: ajvErrorPointer(e) },
        ),
      ),
    };
  return { waivers: (json as { waivers: Waiver[] }).waivers, diagnostics: [] };
}

/** True when the waiver's last valid day lies before `now` (UTC). */
export function isExpired(waiver: Waiver, now: Date): boolean {
  return waiver.expires < now.toISOString().slice(0, 10);
}

/**
 * The fingerprint a waiver's fingerprint stands for today: when a release of the diff changes how
 * a finding is fingerprinted, `fingerprint-renames.json` maps each old fingerprint of the recorded
 * verdicts to its new one (the golden check refuses the change otherwise), so waivers written
 * against the old fingerprint keep matching. Chains are followed.
 */
export function currentFingerprint(
  fingerprint: string,
  renames: Readonly<Record<string, string>> = fingerprintRenames.renames,
): string {
  let fp = fingerprint;
  const seen = new Set<string>();
  while (renames[fp] !== undefined && !seen.has(fp)) {
    seen.add(fp);
    fp = renames[fp];
  }
  return fp;
}
