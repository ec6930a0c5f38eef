import type { Ajv2020 } from "ajv/dist/2020.js";
import { createAjv } from "../../json-schema/ajv.js";
import type { CallContext } from "../domain/call-context.js";
import { AdapterMappingError, type ServedTool } from "./served-contract.js";

/**
 * How calls built from a held (older) definition of a tool map onto the tool as it is now, and
 * back: for a tool that changed incompatibly under its own name, served to hosts that echo the
 * definition tag of a release holding the old definition (experimental, `definitionTags`). A
 * missing side maps nothing (the value passes as it is); both sides are checked against schemas
 * either way.
 */
export interface HeldDefinitionAdapter<Ctx = CallContext> {
  /** A call valid under the held input schema → a call of the current definition. */
  input?(held: never, ctx: Ctx): unknown;
  /** The current definition's answer (named for the caller) → a result of the held definition. */
  output?(current: never, ctx: Ctx): unknown;
}

/**
 * Held-definition adapters by tool name, then by the version of a live release that holds the
 * definition they serve (any release holding that same definition will do; one adapter serves
 * every release that holds it).
 */
export type HeldDefinitionAdapters<Ctx = CallContext> = {
  readonly [tool: string]: {
    readonly [releaseVersion: string]: HeldDefinitionAdapter<Ctx>;
  };
};

/** A held definition of a current tool, served through its adapter: what a call decided "honour" runs. */
export interface HeldServedTool {
  tool: ServedTool;
  /**
   * Whether the server can serve `args` under the held definition: always with an adapter; without
   * one, a call the held input accepts must be accepted by the current input too (else the tag
   * is refused as stale before anything runs). A call the held input refuses is answered as
   * invalid input by `tool`.
   */
  accepts(args: unknown): boolean;
}

type JsonObject = Record<string, unknown>;

/**
 * Serve a held definition `held` of the current tool `current`: the call is validated against the
 * held input schema, mapped by the adapter's `input` and validated against the current input (a
 * refusal there is the adapter's fault: temporarily unavailable, nothing written); the current
 * handler runs, its answer is checked against the current output schema and named for the caller,
 * mapped by the adapter's `output` and checked against the held output schema, inside a write's
 * transaction (a refusal rolls the write back). The validators are compiled here, once, at start.
 */
export function serveHeldDefinition(
  current: ServedTool,
  held: JsonObject,
  adapter: HeldDefinitionAdapter | undefined,
  ajv: Ajv2020 = heldAjv(),
): HeldServedTool {
  const { runAs } = current;
  if (!runAs) throw new Error(`${current.name} is not a current tool: it has no held definitions`);
  const validateInput = ajv.compile(held.inputSchema as JsonObject);
  const validateOutput = ajv.compile(held.outputSchema as JsonObject);
  const name = current.name;
  // The same properties in the same order as the current tool's (`runAs` left undefined: a held
  // definition is served as it is), so the dispatcher's call sites see one object shape.
  const tool: ServedTool = {
    ...current,
    validateInput,
    outputSchema: held.outputSchema as JsonObject,
    async run(input, ctx) {
      const mapped = adapter?.input ? await adapter.input(input as never, ctx) : input;
      if (!current.validateInput(mapped)) throw new AdapterMappingError(name, "input");
      return runAs(mapped, ctx, async (answer) => {
        const back = adapter?.output ? await adapter.output(answer as never, ctx) : answer;
        if (!validateOutput(back)) throw new AdapterMappingError(name, "output");
        return back;
      });
    },
    runAs: undefined,
  };
  const accepts = adapter?.input
    ? () => true
    : (args: unknown) => current.validateInput(args ?? {}) || !validateInput(args ?? {});
  return { tool, accepts };
}

/** The Ajv that compiles held definitions' schemas: lenient about keywords, like the SDK's. */
export function heldAjv(): Ajv2020 {
  return createAjv({ strict: false, validateSchema: false });
}

/**
 * The adapter of `tool`'s held definition, found by any of the release versions that hold it
 * (`versions`, oldest first); undefined when none declares one.
 */
export function heldAdapterOf(
  adapters: HeldDefinitionAdapters | undefined,
  tool: string,
  versions: readonly string[],
): HeldDefinitionAdapter | undefined {
  const byVersion = adapters && Object.hasOwn(adapters, tool) ? adapters[tool] : undefined;
  if (!byVersion) return undefined;
  for (const v of versions) if (Object.hasOwn(byVersion, v)) return byVersion[v];
  return undefined;
}
