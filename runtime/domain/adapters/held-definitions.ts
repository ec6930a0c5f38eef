import type { HeldDefinitionAdapters } from "../../mcp/held-definitions.js";

/**
 * How older definitions of tools changed incompatibly under their own name are served to hosts
 * that echo the definition tag of a live release holding them (experimental, `definitionTags`):
 * by tool, then by the version of a release holding the old definition, an `input` mapping an old
 * call onto the current tool and an `output` mapping its result back. The runtime validates both
 * sides against the held and the current schemas. Hosts that echo no tag keep today's rules: they
 * are served the current definition. No tool of the contract has changed that way today.
 */
export const coachHeldDefinitionAdapters: HeldDefinitionAdapters = {};
