import { toolNames, type ToolInput, type ToolName } from "../../generated/handlers.gen.js";
import * as validators from "../../generated/validators.gen.js";
import type { Validator } from "../../generated/validators.gen.js";

const pascal = (snake: string) =>
  snake.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

/** The precompiled input validator of every tool, looked up once at start-up. */
export const inputValidators: { readonly [N in ToolName]: Validator<ToolInput<N>> } =
  Object.fromEntries(
    toolNames.map((name) => {
      const validator = (validators as Record<string, unknown>)[`validate${pascal(name)}Input`];
      if (typeof validator !== "function")
        throw new Error(`generated/validators.gen.js has no input validator for ${name}`);
      return [name, validator];
    }),
  ) as { [N in ToolName]: Validator<ToolInput<N>> };
