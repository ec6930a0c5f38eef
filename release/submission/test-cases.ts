import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { ajvErrorMessage, ajvErrorPointer, createAjv } from "../../json-schema/ajv.js";
import casesSchema from "./test-cases.schema.json" with { type: "json" };

/** One reviewed prompt the app should handle, and the tools it should call. */
export interface PositiveCase {
  description: string;
  userPrompt: string;
  toolsTriggered: string[];
  expectedOutput: string;
  fileAttachmentUrls?: string[];
  expectedOutputUrl?: string;
}

/** One nearby prompt the app must not handle. */
export interface NegativeCase {
  description: string;
  userPrompt: string;
  expectedOutput: string;
}

/** release/submission/test-cases.json as validated. */
export interface SubmissionCases {
  testCases: PositiveCase[];
  negativeTestCases: NegativeCase[];
}

/** What the ChatGPT submission form requires at least. */
export const minimumCases = { testCases: 5, negativeTestCases: 3 } as const;

const TEST_CASES_INVALID = defineRule({
  id: "SUBMISSION_TEST_CASES_INVALID",
  family: "release",
  severity: "error",
  summary:
    "release/submission/test-cases.json exists, parses and has the shape of its schema " +
    "(test-cases.schema.json).",
  message: {
    missing: "{file} is missing; the directory submission needs reviewed example prompts",
    json: "{file} is not valid JSON: {error}",
    schema: "{file}: {error}",
  },
});
const TEST_CASES_TOO_FEW = defineRule({
  id: "SUBMISSION_TEST_CASES_TOO_FEW",
  family: "release",
  severity: "error",
  summary: "The submission carries at least 5 positive and 3 negative test cases.",
  message: "{file} has {count} {kind}; the ChatGPT submission form requires at least {minimum}",
});
const TEST_CASE_UNKNOWN_TOOL = defineRule({
  id: "SUBMISSION_TEST_CASE_UNKNOWN_TOOL",
  family: "release",
  severity: "error",
  summary: "A positive test case names only tools of the contract.",
  message:
    "test case {index} triggers {tool:json}, which is not a tool of the package (a superseded tool is not in it: name its replacement)",
});
const TOOL_UNTESTED = defineRule({
  id: "SUBMISSION_TOOL_UNTESTED",
  family: "release",
  severity: "warning",
  summary: "Every tool the model can call is triggered by at least one positive test case.",
  message: "no positive test case triggers {tool}; reviewers may not exercise it",
});

let validate: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

/**
 * Read and check the reviewed test cases against the contract's tools: the file's shape, the
 * minimum counts, only known tools named, and (as warnings) tools that need a test and have none
 * (the model-callable current ones; widget helpers and superseded tools do not).
 */
export async function readSubmissionCases(
  root: string,
  tools: readonly { name: string; needsTest: boolean }[],
): Promise<{ cases?: SubmissionCases; diagnostics: Diagnostic[] }> {
  const file = projectLayout.submissionTestCases;
  const text = await readFile(path.join(root, file), "utf8").catch(() => undefined);
  if (text === undefined)
    return { diagnostics: [diagnose(TEST_CASES_INVALID, { variant: "missing", file }, { file })] };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const error = (e as Error).message;
    return {
      diagnostics: [diagnose(TEST_CASES_INVALID, { variant: "json", file, error }, { file })],
    };
  }
  validate ??= createAjv({ allErrors: true }).compile(casesSchema);
  if (!validate(doc))
    return {
      diagnostics: (validate.errors ?? []).map((e) =>
        diagnose(
          TEST_CASES_INVALID,
          { variant: "schema", file, error: ajvErrorMessage(e) },
          { file, pointer: ajvErrorPointer(e) },
        ),
      ),
    };
  const cases = doc as SubmissionCases;
  const diagnostics: Diagnostic[] = [];
  for (const [kind, label] of [
    ["testCases", "positive test cases"],
    ["negativeTestCases", "negative test cases"],
  ] as const)
    if (cases[kind].length < minimumCases[kind])
      diagnostics.push(
        diagnose(
          TEST_CASES_TOO_FEW,
          { file, count: cases[kind].length, kind: label, minimum: minimumCases[kind] },
          { file, pointer: `/${kind}` },
        ),
      );
  const known = new Set(tools.map((t) => t.name));
  const triggered = new Set<string>();
  for (const [index, c] of cases.testCases.entries())
    for (const [at, tool] of c.toolsTriggered.entries()) {
      triggered.add(tool);
      if (!known.has(tool))
        diagnostics.push(
          diagnose(
            TEST_CASE_UNKNOWN_TOOL,
            { index, tool },
            { file, pointer: `/testCases/${index}/toolsTriggered/${at}` },
          ),
        );
    }
  for (const t of tools)
    if (t.needsTest && !triggered.has(t.name))
      diagnostics.push(diagnose(TOOL_UNTESTED, { tool: t.name }, { file, pointer: "/testCases" }));
  return { cases, diagnostics };
}
