/**
 * The adapted-call column of the runtime benchmark: the real coach server (same Koa app, SDK
 * endpoint, auth, store) whose contract also carries a superseded tool,
 * `get_skillpilot_learning_context_v0`, replaced by `get_skillpilot_learning_context` and served
 * through an adapter that maps the call and the result field by field (a realistic mapping: a copy,
 * not the identity). A call of the old name pays what every adapted call pays — the old input's
 * validation, the mapping, the mapped input's validation, the result's mapping and its check
 * against the old output schema — on top of the direct call of the replacement.
 * The benchmark starts it with definition tags on (SKILLPILOT_DEFINITION_TAGS=1) for its
 * direct+tag row.
 * Usage: node --import tsx bench/runtime/adapter-server.ts DATA_DIR. Prints its MCP URL on stdout;
 * SIGTERM stops it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../../runtime/config/config.js";
import type { GeneratedContract } from "../../runtime/mcp/served-contract.js";
import { primaryContract } from "../../runtime/primary-contract.js";
import { serve } from "../../runtime/server.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: adapter-server.ts DATA_DIR");

/** The superseded name the benchmark calls, and the tool that replaced it. */
const ADAPTED_TOOL = "get_skillpilot_learning_context_v0";
const REPLACEMENT = "get_skillpilot_learning_context";

const base = primaryContract;
const current = base.toolDescriptors.find((d) => d.name === REPLACEMENT)!;
const validators = base.validators as Record<string, unknown>;
const contract: GeneratedContract = {
  ...base,
  toolDescriptors: [...base.toolDescriptors, { ...current, name: ADAPTED_TOOL }],
  toolScopes: { ...base.toolScopes, [ADAPTED_TOOL]: base.toolScopes[REPLACEMENT] },
  toolKinds: { ...base.toolKinds, [ADAPTED_TOOL]: base.toolKinds[REPLACEMENT] },
  supersededTools: { ...base.supersededTools, [ADAPTED_TOOL]: REPLACEMENT },
  validators: {
    ...validators,
    validateGetSkillpilotLearningContextV0Input:
      validators.validateGetSkillpilotLearningContextInput,
    validateGetSkillpilotLearningContextV0Output:
      validators.validateGetSkillpilotLearningContextOutput,
  },
};
const copy = (value: Record<string, unknown>) => ({ ...value });
const { running } = await serve(
  await loadConfig(root, {
    dataDir,
    port: 0,
    logDestination: path.join(dataDir, "adapter-calls.log"),
  }),
  { contract, adapters: { [ADAPTED_TOOL]: { input: copy, output: copy } } as never },
);
process.stdout.write(`MCP endpoint ${running.mcpUrl}\n`);
process.once("SIGTERM", () => void running.close());
