/**
 * The adapted-call column of the runtime benchmark: the real coach server (same Koa app, SDK
 * endpoint, auth, store) whose contract also carries a superseded tool,
 * `get_skillpilot_learning_context_v0`, replaced by `get_skillpilot_learning_context` and served
 * through an adapter that maps the call and the result field by field (a realistic mapping: a copy,
 * not the identity). A call of the old name pays what every adapted call pays — the old input's
 * validation, the mapping, the mapped input's validation, the result's mapping and its check
 * against the old output schema — on top of the direct call of the replacement.
 * The benchmark starts it with definition tags on (SKILLPILOT_DEFINITION_TAGS=1) for its
 * direct+tag and honoured rows. It runs for a project whose release 1.0.0 held an older definition
 * of the context tool, changed incompatibly since under its own name (1.0.0 also took an optional
 * `detail`, which today's closed input refuses), served through a held-definition adapter that
 * drops it: a call echoing 1.0.0's tag pays the held input's validation, the mapping, the current
 * input's validation, and the result's check against 1.0.0's output schema. The server prints that
 * tag before its MCP URL.
 * Usage: node --import tsx bench/runtime/adapter-server.ts DATA_DIR. Prints its MCP URL on stdout;
 * SIGTERM stops it.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { classifyToolChange } from "../../checks/diff/tool-change-class.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import type { StatementDocument } from "../../evolution/definition-tags/statement.js";
import { loadConfig } from "../../runtime/config/config.js";
import type { GeneratedContract } from "../../runtime/mcp/served-contract.js";
import { primaryContract } from "../../runtime/primary-contract.js";
import { serve } from "../../runtime/server.js";
import { taggedProject } from "../../test/e2e/support/tagged-project.js";

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

/** Release 1.0.0: today's tools, the context tool's input then also taking an optional `detail`. */
const snapshotFile = path.join(root, projectLayout.snapshotFile);
const release100 = (
  JSON.parse(await readFile(snapshotFile, "utf8")) as {
    tools: Record<string, unknown>[];
  }
).tools.map(({ kind: _kind, ...tool }) => {
  if (tool.name !== REPLACEMENT) return tool;
  const held = structuredClone(tool) as {
    inputSchema: { properties: Record<string, unknown> };
  };
  held.inputSchema.properties.detail = { enum: ["brief", "full"] };
  return held;
});
const project = await taggedProject(snapshotFile, [{ version: "1.0.0", tools: release100 }]);
const statement = JSON.parse(
  await readFile(path.join(project.root, projectLayout.approvedStatement), "utf8"),
) as StatementDocument;
const heldTag = statement.entries
  .at(-1)!
  .lanes.find((l) => l.lane === "openai")!
  .approved.find((s) => s.version === "1.0.0")!.tag;
const { running } = await serve(
  await loadConfig(project.root, {
    ...project.overrides,
    dataDir,
    port: 0,
    logDestination: path.join(dataDir, "adapter-calls.log"),
  }),
  {
    contract,
    adapters: { [ADAPTED_TOOL]: { input: copy, output: copy } } as never,
    classifyToolChange,
    heldDefinitionAdapters: {
      [REPLACEMENT]: {
        "1.0.0": {
          input: ({ detail: _detail, ...call }: Record<string, unknown>) => call,
          output: copy as never,
        },
      },
    },
  },
);
process.stdout.write(`held definition tag ${heldTag}\n`);
process.stdout.write(`MCP endpoint ${running.mcpUrl}\n`);
process.once("SIGTERM", () => {
  void running.close().finally(() => project.cleanup());
});
