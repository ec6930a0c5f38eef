import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { defineRule, diagnose } from "../../diagnostics/rule.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { ContractModel } from "../../generator/model.js";
import { ajvErrorMessage, ajvErrorPointer, createAjv } from "../../json-schema/ajv.js";
import { isObject } from "../../json-schema/walk.js";
import submissionSchema from "./chatgpt-app-submission.schema.json" with { type: "json" };
import type { SubmissionCases } from "./test-cases.js";

/** The `$schema` the ChatGPT submission form's importer recognises. */
export const chatgptSubmissionSchemaUri =
  "https://developers.openai.com/apps-sdk/schemas/chatgpt-app-submission.v1.json";

const APP_INFO_MISSING = defineRule({
  id: "SUBMISSION_APP_INFO_MISSING",
  family: "release",
  severity: "error",
  summary:
    "plugin.json carries the directory listing (subtitle, description, category, privacy " +
    "policy URL) the submission's app info is built from.",
  message:
    "schemas/plugin.json has no directory block; add subtitle, description, category and privacyPolicyUrl",
});
const JUSTIFICATION_MISSING = defineRule({
  id: "SUBMISSION_JUSTIFICATION_MISSING",
  family: "release",
  severity: "error",
  summary:
    "Every tool justifies its readOnly, destructive and openWorld hints (hintJustifications).",
  message: "{tool} has no hintJustifications; the submission needs one sentence per hint",
});
const SUBMISSION_INVALID = defineRule({
  id: "SUBMISSION_SCHEMA_VIOLATION",
  family: "release",
  severity: "error",
  summary: "The built chatgpt-app-submission.json satisfies the published schema_version 1 shape.",
  message: "chatgpt-app-submission.json would not import: {error}",
});

let validate: ReturnType<ReturnType<typeof createAjv>["compile"]> | undefined;

/**
 * Build `chatgpt-app-submission.json` from the contract: app info from plugin.json `directory`,
 * each tool's three reviewed hints with their justifications, and the reviewed test cases; then
 * validate it against our schema of the published shape. Pure: no I/O.
 */
export function buildChatgptSubmission(
  model: ContractModel,
  cases: SubmissionCases,
): { json?: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const listing = isObject(model.plugin.directory) ? model.plugin.directory : undefined;
  if (!listing)
    diagnostics.push(
      diagnose(APP_INFO_MISSING, {}, { file: projectLayout.pluginFile, pointer: "/directory" }),
    );
  const tools: Record<string, unknown> = {};
  for (const t of model.tools) {
    const why = t.hintJustifications;
    if (!why) {
      diagnostics.push(diagnose(JUSTIFICATION_MISSING, { tool: t.name }, { file: t.file }));
      continue;
    }
    tools[t.name] = {
      annotations: {
        readOnlyHint: t.annotations.readOnlyHint,
        openWorldHint: t.annotations.openWorldHint,
        destructiveHint: t.annotations.destructiveHint,
      },
      justifications: {
        read_only_justification: why.readOnlyHint,
        open_world_justification: why.openWorldHint,
        destructive_justification: why.destructiveHint,
      },
    };
  }
  if (diagnostics.length > 0) return { diagnostics };
  const json = {
    $schema: chatgptSubmissionSchemaUri,
    schema_version: 1,
    app_info: {
      display_name: model.plugin.displayName,
      subtitle: listing!.subtitle,
      description: listing!.description,
      category: listing!.category,
    },
    tools,
    test_cases: cases.testCases.map((c) => ({
      description: c.description,
      user_prompt: c.userPrompt,
      file_attachment_urls: c.fileAttachmentUrls ?? null,
      tools_triggered: c.toolsTriggered.join(", "),
      expected_output: c.expectedOutput,
      expected_output_url: c.expectedOutputUrl ?? null,
    })),
    negative_test_cases: cases.negativeTestCases.map((c) => ({
      description: c.description,
      user_prompt: c.userPrompt,
      file_attachment_urls: null,
      tools_triggered: null,
      expected_output: c.expectedOutput,
      expected_output_url: null,
    })),
  };
  validate ??= createAjv({ allErrors: true }).compile(submissionSchema);
  if (!validate(json))
    return {
      diagnostics: (validate.errors ?? []).map((e) => {
        // The message names the instance path, except for a missing or unknown property.
        const message = ajvErrorMessage(e);
        const error = message.startsWith("/") ? message : `${ajvErrorPointer(e) || "/"} ${message}`;
        return diagnose(SUBMISSION_INVALID, { error }, { file: projectLayout.submissionTestCases });
      }),
    };
  return { json, diagnostics };
}
