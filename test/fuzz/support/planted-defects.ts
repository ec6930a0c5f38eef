import type { CoachHandlers, ToolOutput } from "../../../generated/handlers.gen.js";
import { validateGetSkillpilotLearningContextOutput } from "../../../generated/validators.gen.js";
import type { CallContext } from "../../../runtime/domain/call-context.js";
import { coachHandlers } from "../../../runtime/domain/handlers/index.js";
import { primaryContract } from "../../../runtime/primary-contract.js";
import type { ServeOptions } from "../../../runtime/served-contracts.js";

type LearningContext = ToolOutput<"get_skillpilot_learning_context">;

/** A server's options with a defect in them, and the switch that arms it (after the seeding). */
export interface Planted {
  options: ServeOptions;
  arm(): void;
}

/**
 * The condition both defects share: once armed, the learning context of a session that has been
 * written to (a choice made: state version above 1), not that of a new one.
 */
function writeDetector(): { writtenTo(out: LearningContext): boolean; arm(): void } {
  let armed = false;
  return {
    writtenTo: (out) => armed && out.stateVersion > 1,
    arm: () => {
      armed = true;
    },
  };
}

/**
 * Defects planted on purpose in what a fixture server serves, to prove the fuzzer finds each kind
 * within its budget; nothing in the runtime knows of them (they go in through `serve`'s options:
 * broken copies of a real handler and of a generated validator). Each is armed once the fuzzer's
 * seeding is done, and fires only on the learning context of a session that has been written to
 * (`writeDetector`):
 * - `output-schema`: the context carries a property its closed output schema does not declare,
 *   and the served copy of its output validator lets it through (only the output oracle, on the
 *   real generated validator, can see it);
 * - `internal-error`: the context's handler throws a TypeError (answered as INTERNAL_ERROR).
 */
export const plantedDefects = {
  "output-schema": (): Planted => {
    const { writtenTo, arm } = writeDetector();
    const handlers: CoachHandlers<CallContext> = {
      ...coachHandlers,
      async get_skillpilot_learning_context(input, ctx) {
        const out = await coachHandlers.get_skillpilot_learning_context(input, ctx);
        return writtenTo(out) ? { ...out, learnerName: "debug" } : out;
      },
    };
    const armedFlag = { on: false };
    // The served copy of the output validator lets the extra property through (the runtime checks
    // every output with it and would otherwise answer INTERNAL_ERROR).
    const validators = {
      ...primaryContract.validators,
      validateGetSkillpilotLearningContextOutput: (value: unknown) =>
        armedFlag.on || validateGetSkillpilotLearningContextOutput(value),
    };
    return {
      options: { handlers, contract: { ...primaryContract, validators } },
      arm: () => {
        armedFlag.on = true;
        arm();
      },
    };
  },
  "internal-error": (): Planted => {
    const { writtenTo, arm } = writeDetector();
    const handlers: CoachHandlers<CallContext> = {
      ...coachHandlers,
      async get_skillpilot_learning_context(input, ctx) {
        const out = await coachHandlers.get_skillpilot_learning_context(input, ctx);
        if (writtenTo(out)) (undefined as unknown as { x: () => void }).x();
        return out;
      },
    };
    return { options: { handlers }, arm };
  },
} as const;

/** The name of a planted defect. */
export type PlantedDefect = keyof typeof plantedDefects;
