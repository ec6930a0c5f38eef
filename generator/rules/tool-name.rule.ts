import { defineRule } from "../../diagnostics/rule.js";
import { generatorRule } from "./rule.js";

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Tool names are snake_case, at most 64 characters, and match their file name and `$id`. */
export const toolName = generatorRule(
  defineRule({
    id: "TOOL_NAME_INVALID",
    family: "generator",
    severity: "error",
    summary: "Tool names are snake_case (at most 64 characters) and match the file name and $id.",
    message: {
      name: "tool name {name:json} is not snake_case of at most 64 characters",
      file: "tool {tool} is defined in {file}; the file must be named {tool}.json",
      id: "tool {tool} has $id {id}; it must end with /tools/{tool}",
    },
  }),
  (ctx, report) => {
    for (const tool of ctx.tools) {
      const name = tool.doc.name;
      if (typeof name !== "string" || !snakeCase.test(name) || name.length > 64) {
        report({ variant: "name", name }, { file: tool.file, pointer: "/name" });
        continue;
      }
      const base = tool.file.replace(/^.*\//, "").replace(/\.json$/, "");
      if (base !== name)
        report(
          { variant: "file", tool: name, file: tool.file },
          { file: tool.file, pointer: "/name" },
        );
      if (!tool.id.endsWith(`/tools/${name}`))
        report({ variant: "id", tool: name, id: tool.id }, { file: tool.file, pointer: "/$id" });
    }
  },
);
