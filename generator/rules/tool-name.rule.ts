import { createRule } from "./rule.js";

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Tool names are snake_case, at most 64 characters, and match their file name and `$id`. */
export const toolName = createRule({
  id: "TOOL_NAME_INVALID",
  severity: "error",
  summary: "Tool names are snake_case (at most 64 characters) and match the file name and $id.",
  check: (ctx, report) => {
    for (const tool of ctx.tools) {
      const name = tool.doc.name;
      if (typeof name !== "string" || !snakeCase.test(name) || name.length > 64) {
        report(`tool name ${JSON.stringify(name)} is not snake_case of at most 64 characters`, {
          file: tool.file,
          pointer: "/name",
        });
        continue;
      }
      const base = tool.file.replace(/^.*\//, "").replace(/\.json$/, "");
      if (base !== name)
        report(`tool ${name} is defined in ${tool.file}; the file must be named ${name}.json`, {
          file: tool.file,
          pointer: "/name",
        });
      if (!tool.id.endsWith(`/tools/${name}`))
        report(`tool ${name} has $id ${tool.id}; it must end with /tools/${name}`, {
          file: tool.file,
          pointer: "/$id",
        });
    }
  },
});
