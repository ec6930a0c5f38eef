import { pluginIdentity } from "../generated/identity.gen.js";
import { supersededTools, toolKinds } from "../generated/handlers.gen.js";
import { contractScopes, toolDescriptors, toolScopes } from "../generated/tools.gen.js";
import * as validators from "../generated/validators.gen.js";
import type { GeneratedContract } from "./mcp/served-contract.js";

/** The generated code of this repository's contract: the major the public endpoint serves. */
export const primaryContract: GeneratedContract = {
  pluginIdentity,
  toolDescriptors,
  toolScopes,
  contractScopes,
  toolKinds,
  supersededTools,
  validators,
};
