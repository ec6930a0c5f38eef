import type { Tool } from "@modelcontextprotocol/server";
import { CoachError } from "../errors.js";
import type { CallContext } from "../domain/call-context.js";
import { type CallFacts, factsOf, reportingFailure } from "../domain/call-facts.js";
import type { LineSource } from "../domain/line-source.js";
import { type DefinitionSet, nameToolsFor, toolNamings } from "../../evolution/tool-naming.js";

/** A JSON Schema object as the descriptors carry it. */
type JsonObject = { [key: string]: unknown };

/** A validator of the generated code: a type guard with Ajv's `errors`. */
type GeneratedValidator = ((value: unknown) => boolean) & { errors?: unknown };

/**
 * The generated code of one contract major (`generated/` of a project): what the runtime needs to
 * serve it. The primary contract is imported statically; another major (a second contract beside
 * it) is loaded from its own project's `generated/` the same way.
 */
export interface GeneratedContract {
  pluginIdentity: {
    packageName: string;
    contractMajor: number;
    workflowVersion: string;
  };
  toolDescriptors: readonly {
    name: string;
    inputSchema: JsonObject;
    outputSchema: JsonObject;
  }[];
  toolScopes: { readonly [name: string]: readonly string[] };
  contractScopes: readonly string[];
  toolKinds: { readonly [name: string]: string };
  /** Superseded tool → its current replacement (absent in code generated before adapters). */
  supersededTools?: { readonly [name: string]: string };
  /** The namespace of `validators.gen.js`: `validate<Tool>Input` / `validate<Tool>Output`. */
  validators: { readonly [exported: string]: unknown };
}

/** A tool's implementation: input already validated, output the tool's structuredContent. */
export type ToolImplementation = (input: never, ctx: CallContext) => Promise<unknown>;

/** How an old call of a superseded tool maps onto its replacement, and back. */
export interface ToolAdapter {
  input(input: never, ctx: CallContext): unknown;
  output(output: never, ctx: CallContext): unknown;
}

/** What a contract major is served with besides its generated code. */
export interface ContractImplementation {
  contract: GeneratedContract;
  /** One implementation per current tool (the generated `CoachHandlers`). */
  handlers: { readonly [name: string]: ToolImplementation };
  /** One adapter per superseded tool (the generated `CoachAdapters`). */
  adapters?: { readonly [name: string]: ToolAdapter };
  /** The contract line this major is served under, and its file. */
  line: LineSource;
  lineFile: string;
  /**
   * The tool names of each live approved definition set of this major (a published release not
   * retired, the draft under review): which names a caller of each tool may be sent.
   */
  live?: readonly DefinitionSet[];
}

/** A call's answer and the facts of its domain work, for its log line. */
export interface ToolRun {
  output: unknown;
  facts: CallFacts;
}

/** One callable tool of a served contract. */
export interface ServedTool {
  name: string;
  kind: string;
  scopes: readonly string[];
  validateInput: GeneratedValidator;
  outputSchema: JsonObject;
  /**
   * Run the call; what it throws carries the facts known by then (`factsOf` of the error, see
   * `domain/call-facts.ts`).
   */
  run(input: unknown, ctx: CallContext): Promise<ToolRun>;
  /**
   * A current tool only: run the call and hand its answer (checked against this tool's output
   * schema, named for the caller) to `finish`, whose value is sent instead; `finish` runs inside a
   * write's transaction, so what it throws rolls the write back. How a held definition of the tool
   * is served (`held-definitions.ts`).
   */
  runAs?(
    input: unknown,
    ctx: CallContext,
    finish: (answer: unknown) => Promise<unknown>,
  ): Promise<ToolRun>;
}

/** A contract major as one MCP endpoint serves it. */
export interface ServedContract {
  contractMajor: number;
  /** Log and metric label, e.g. `skillpilot-coach/v1` (L13). */
  pluginLine: string;
  workflowVersion: string;
  line: LineSource;
  lineFile: string;
  /** `tools/list`: the descriptors as generated, without superseded tools no live definition holds. */
  listing: readonly Tool[];
  /** Every name a call may use: current tools and superseded ones (through their adapters). */
  tools: ReadonlyMap<string, ServedTool>;
  scopesSupported: readonly string[];
}

/**
 * A handler returned a result its own output schema refuses: a bug of the server, answered as an
 * internal error. A write's transaction is rolled back, so "nothing was saved" holds.
 */
export class OutputContractError extends CoachError {
  override name = "OutputContractError";
  constructor(readonly tool: string) {
    super("INTERNAL_ERROR", { tool });
  }
}

/**
 * An adapter mapped a call or a result to something its target schema refuses: a bug of the
 * backend's mapping, not of the caller (an adapter of a superseded tool, or of a held definition). The call is refused as temporarily unavailable (text
 * coaching goes on), before anything is written when the input was at fault.
 */
export class AdapterMappingError extends CoachError {
  override name = "AdapterMappingError";
  constructor(
    readonly tool: string,
    readonly side: "input" | "output",
  ) {
    super("TEMPORARILY_UNAVAILABLE", { tool, side });
  }
}

const pascal = (snake: string) =>
  snake.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());

function validatorOf(contract: GeneratedContract, tool: string, side: "Input" | "Output") {
  const v = contract.validators[`validate${pascal(tool)}${side}`];
  if (typeof v !== "function")
    throw new Error(
      `the generated code of contract major ${contract.pluginIdentity.contractMajor} has no ` +
        `${side.toLowerCase()} validator for ${tool}`,
    );
  return v as GeneratedValidator;
}

/**
 * Run a handler with the step that turns its output into the caller's answer. A write handler
 * applies `ctx.answer` inside its transaction (so a refused answer rolls the write back, and the
 * idempotency record keeps the answer as sent); for any other handler it runs here, after. The
 * facts are the ones the handler's output carries.
 */
async function answered(
  handler: ToolImplementation,
  input: unknown,
  ctx: CallContext,
  answer: (output: unknown) => Promise<unknown>,
): Promise<ToolRun> {
  ctx.answer = answer;
  ctx.answered = false;
  const output = await handler(input as never, ctx);
  const facts = factsOf(output);
  if (ctx.answered) return { output, facts };
  return { output: await reportingFailure(facts, () => answer(output)), facts };
}

/**
 * Build what an endpoint serves from a contract's generated code and its implementation: each
 * current tool runs its handler, its result checked against its own output schema; each superseded
 * tool validates the old call with its own schema, maps it with its adapter, validates the mapped
 * call with the replacement's schema, runs the replacement's handler and maps the result back,
 * checked against the old output schema. Results name tools as the caller's definitions do
 * (`evolution/tool-naming.ts`). Every check of a write's answer runs before its commit. A
 * tool without its handler or adapter is a start-up error, not a call-time one.
 */
export function serveContract(impl: ContractImplementation): ServedContract {
  const { contract, handlers, adapters = {} } = impl;
  const superseded = contract.supersededTools ?? {};
  const tools = new Map<string, ServedTool>();
  const currentNames = contract.toolDescriptors
    .map((d) => d.name)
    .filter((n) => superseded[n] === undefined);
  const namings = toolNamings(currentNames, superseded, impl.live ?? []);
  const named = (tool: string, output: unknown) => {
    const naming = namings.get(tool);
    return naming ? nameToolsFor(output, naming) : output;
  };
  const handlerOf = (name: string) => {
    const handler = handlers[name];
    if (typeof handler !== "function")
      throw new Error(
        `contract major ${contract.pluginIdentity.contractMajor}: no handler for ${name}`,
      );
    return handler;
  };
  const base = (name: string) => ({
    name,
    kind: String(contract.toolKinds[name]),
    scopes: contract.toolScopes[name] ?? [],
    validateInput: validatorOf(contract, name, "Input"),
    outputSchema: contract.toolDescriptors.find((d) => d.name === name)!.outputSchema,
  });
  for (const { name } of contract.toolDescriptors) {
    if (superseded[name] !== undefined) continue;
    const handler = handlerOf(name);
    const validateOutput = validatorOf(contract, name, "Output");
    const answer = async (output: unknown) => {
      const sent = named(name, output);
      if (!validateOutput(sent)) throw new OutputContractError(name);
      return sent;
    };
    tools.set(name, {
      ...base(name),
      run: (input, ctx) => answered(handler, input, ctx, answer),
      runAs: (input, ctx, finish) =>
        answered(handler, input, ctx, async (output) => finish(await answer(output))),
    });
  }
  for (const [name, replacementName] of Object.entries(superseded)) {
    const adapter = adapters[name];
    const replacement = tools.get(replacementName);
    if (!adapter || !replacement)
      throw new Error(
        `contract major ${contract.pluginIdentity.contractMajor}: ${name} is superseded by ` +
          `${replacementName} but has no adapter (generated CoachAdapters) or no replacement handler`,
      );
    const validateOutput = validatorOf(contract, name, "Output");
    const validateReplacement = validatorOf(contract, replacementName, "Output");
    const handler = handlerOf(replacementName);
    tools.set(name, {
      ...base(name),
      async run(input, ctx) {
        const mapped = await adapter.input(input as never, ctx);
        if (!replacement.validateInput(mapped)) throw new AdapterMappingError(name, "input");
        return answered(handler, mapped, ctx, async (result) => {
          if (!validateReplacement(result)) throw new OutputContractError(replacementName);
          const back = await adapter.output(named(name, result) as never, ctx);
          if (!validateOutput(back)) throw new AdapterMappingError(name, "output");
          return back;
        });
      },
    });
  }
  const major = contract.pluginIdentity.contractMajor;
  return {
    contractMajor: major,
    pluginLine: `${contract.pluginIdentity.packageName}/v${major}`,
    workflowVersion: contract.pluginIdentity.workflowVersion,
    line: impl.line,
    lineFile: impl.lineFile,
    // A superseded tool stays callable for every host that holds it and is never listed: a host
    // that (re)lists gets the replacement, and a ChatGPT draft scanned from the listing holds
    // only current tools, like the release package (docs/evolution.md, "who holds what").
    listing: contract.toolDescriptors.filter(
      (d) => superseded[d.name] === undefined,
    ) as unknown as Tool[],
    tools,
    scopesSupported: contract.contractScopes,
  };
}
