import { defineRule } from "../../../diagnostics/rule.js";
import { directoryRule } from "./directory-rule.js";

/** Every tool has a human title: Claude reads `annotations.title`, ChatGPT the tool's `title`. */
export const toolTitle = directoryRule(
  defineRule({
    id: "DIRECTORY_TOOL_TITLE_MISSING",
    family: "lint",
    severity: "error",
    summary: "Every tool carries a human-readable title (annotations.title for Claude).",
    message: "{tool} has no {where}",
  }),
  ["openai-directory", "claude-directory"],
  (tools, doc, ctx, report) => {
    for (const t of tools) {
      const title =
        ctx.profile === "claude-directory"
          ? (t.annotations?.title as unknown)
          : (t.title ?? t.annotations?.title);
      if (typeof title !== "string" || title.trim() === "")
        report(
          {
            tool: t.name,
            where: ctx.profile === "claude-directory" ? "annotations.title" : "title",
          },
          { file: doc.file, pointer: t.pointer },
        );
    }
  },
);

/** Tool names fit the directories' 64-character limit. */
export const toolNameLength = directoryRule(
  defineRule({
    id: "DIRECTORY_TOOL_NAME_TOO_LONG",
    family: "lint",
    severity: "error",
    summary: "Tool names are at most 64 characters.",
    message: "{tool:json} is {length} characters long; the directories accept at most 64",
  }),
  ["openai-directory", "claude-directory"],
  (tools, doc, _ctx, report) => {
    for (const t of tools)
      if (t.name.length > 64)
        report(
          { tool: t.name, length: t.name.length },
          { file: doc.file, pointer: `${t.pointer}/name` },
        );
  },
);

/** Helper tools only the widget calls are hidden from the model (`_meta.ui.visibility: ["app"]`). */
export const appOnlyHelper = directoryRule(
  defineRule({
    id: "DIRECTORY_HELPER_VISIBLE",
    family: "lint",
    severity: "error",
    summary: 'Tools only the widget calls are app-only: visibility exactly ["app"].',
    message:
      '{tool} is a widget helper but the model can see it; set _meta.ui.visibility to ["app"]',
  }),
  ["openai-directory", "claude-directory"],
  (tools, doc, _ctx, report) => {
    for (const t of tools)
      if (t.kind === "app-only" && !t.appOnly)
        report({ tool: t.name }, { file: doc.file, pointer: `${t.pointer}/_meta` });
  },
);

/** ChatGPT review asks for an output schema so models can read results reliably. */
export const outputSchemaDeclared = directoryRule(
  defineRule({
    id: "DIRECTORY_OUTPUT_SCHEMA_MISSING",
    family: "lint",
    severity: "warning",
    summary: "Every tool declares an outputSchema (ChatGPT directory review).",
    message: "{tool} declares no outputSchema; models read its results less reliably",
  }),
  ["openai-directory"],
  (tools, doc, _ctx, report) => {
    for (const t of tools)
      if (!t.hasOutputSchema) report({ tool: t.name }, { file: doc.file, pointer: t.pointer });
  },
);
