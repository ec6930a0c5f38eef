import type { CoachHandlers } from "../../../generated/handlers.gen.js";
import { validateGetSkillpilotLearningContextOutput } from "../../../generated/validators.gen.js";
import type { CallContext } from "../../../runtime/domain/call-context.js";
import { coachHandlers } from "../../../runtime/domain/handlers/index.js";
import { primaryContract } from "../../../runtime/primary-contract.js";
import type { ServeOptions } from "../../../runtime/served-contracts.js";

/** A server's options with a defect in them, and the switch that arms it (after the seeding). */
export interface Planted {
  options: ServeOptions;
  arm(): void;
}

/**
 * Defects planted on purpose in what a fixture server serves, to prove the fuzzer finds each kind
 * within its budget; nothing in the runtime knows of them (they go in through `serve`'s options:
 * broken copies of a real handler and of a generated validator). Each is armed only once the
 * fuzzer's seeding is done:
 * - `output-schema`: the learning context of a session carries a property its closed output
 *   schema does not declare, and the served copy of its output validator lets it through (only
 *   the output oracle, on the real generated validator, can see it);
 * - `internal-error`: the learning context of a session throws a TypeError (answered as
 *   INTERNAL_ERROR).
 */
export const plantedDefects = {
  "output-schema": (): Planted => {
    let armed = false;
    const handlers: CoachHandlers<CallContext> = {
      ...coachHandlers,
      async get_skillpilot_learning_context(input, ctx) {
        const out = await coachHandlers.get_skillpilot_learning_context(input, ctx);
        return armed && out.stateVersion >= 1 ? { ...out, learnerName: "debug" } : out;
      },
    };
    // The served copy of the output validator lets the extra property through (the runtime checks
    // every output with it and would otherwise answer INTERNAL_ERROR).
    const validators = {
      ...primaryContract.validators,
      validateGetSkillpilotLearningContextOutput: (value: unknown) =>
        armed || validateGetSkillpilotLearningContextOutput(value),
    };
    return {
      options: { handlers, contract: { ...primaryContract, validators } },
      arm: () => (armed = true),
    };
  },
  "internal-error": (): Planted => {
    let armed = false;
    const handlers: CoachHandlers<CallContext> = {
      ...coachHandlers,
      async get_skillpilot_learning_context(input, ctx) {
        const out = await coachHandlers.get_skillpilot_learning_context(input, ctx);
        if (armed && out.stateVersion >= 1) (undefined as unknown as { x: () => void }).x();
        return out;
      },
    };
    return { options: { handlers }, arm: () => (armed = true) };
  },
} as const;

/** The name of a planted defect. */
export type PlantedDefect = keyof typeof plantedDefects;
