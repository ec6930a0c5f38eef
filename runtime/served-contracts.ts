import type { CoachAdapters, CoachHandlers } from "../generated/handlers.gen.js";
import { coachAdapters } from "./domain/adapters/index.js";
import { coachHeldDefinitionAdapters } from "./domain/adapters/held-definitions.js";
import { coachHandlers } from "./domain/handlers/index.js";
import { LineSource } from "./domain/line-source.js";
import {
  type GeneratedContract,
  type ServedContract,
  serveContract,
  type ToolAdapter,
  type ToolImplementation,
} from "./mcp/served-contract.js";
import type { ApprovedDefinitions } from "../evolution/approved-definitions.js";
import { primaryContract } from "./primary-contract.js";
import type { CallContext } from "./domain/call-context.js";
import type { RuntimeServices } from "./services.js";
import type { DefinitionSet } from "../evolution/tool-naming.js";
import type { DefinitionTagging, ToolChangeClassifier } from "./mcp/definition-tags.js";
import type { HeldDefinitionAdapters } from "./mcp/held-definitions.js";

/** Another contract major a server serves beside its own (e.g. the next one, or an older one). */
export interface AdditionalContract {
  /** Its generated code (the exports of its project's `generated/` modules). */
  contract: GeneratedContract & {
    pluginIdentity: { internalAdapterPath?: string };
  };
  handlers: { readonly [name: string]: ToolImplementation };
  adapters?: { readonly [name: string]: ToolAdapter };
  /** Its contract line (absolute path): its policy, revision and floor, separate from the first. */
  lineFile: string;
}

/** What a server serves besides its configuration. */
export interface ServeOptions {
  /**
   * The primary contract's generated code (default: this repository's `generated/`): another
   * revision of the same contract major, e.g. one generated from an edited copy of `schemas/`.
   */
  contract?: GeneratedContract;
  /** The primary contract's handlers (default: the coach's own). */
  handlers?: CoachHandlers<CallContext>;
  /** The primary contract's adapters of superseded tools (default: the coach's own). */
  adapters?: CoachAdapters<CallContext>;
  /** Further contract majors, each on its own internal adapter path. */
  contracts?: readonly AdditionalContract[];
  /**
   * Contract-Diff's class of a tool's change, for the definition-tag decisions (experimental,
   * `definitionTags`); the CLI hands in `checks/diff/tool-change-class.ts`. Without it every
   * changed definition counts as incompatible.
   */
  classifyToolChange?: ToolChangeClassifier;
  /**
   * How held definitions of tools changed incompatibly under their own name are served to hosts
   * echoing a tag of a release that holds them (default: the coach's own,
   * `domain/adapters/held-definitions.ts`).
   */
  heldDefinitionAdapters?: HeldDefinitionAdapters;
}

/** A served contract and the internal adapter path it answers on. */
export interface MountedContract {
  path: string;
  served: ServedContract;
  /** What its endpoints tag their listings and decide echoed tags with (`definitionTags`). */
  tagging?: DefinitionTagging;
}

/** The internal adapter of a contract major (schemas/plugin.json `internalAdapterPath`). */
export const internalAdapterPath = (contract: AdditionalContract["contract"]): string =>
  contract.pluginIdentity.internalAdapterPath ??
  `/internal/openai/v${contract.pluginIdentity.contractMajor}/mcp`;

/** The primary contract major as served, with the given (or the coach's own) implementation. */
export function servePrimary(
  services: RuntimeServices,
  options: ServeOptions = {},
  live?: readonly DefinitionSet[],
): ServedContract {
  return serveContract({
    contract: options.contract ?? primaryContract,
    handlers: (options.handlers ?? coachHandlers) as unknown as MountedHandlers,
    adapters: (options.adapters ?? coachAdapters) as unknown as MountedAdapters,
    line: services.line,
    lineFile: services.config.lineFile,
    ...(live && { live }),
  });
}

/**
 * Per contract major, the tool names of each live approved definition set (the project's release
 * records, read once at start): which names a caller of each tool may be sent.
 */
function liveDefinitionSets(live: ApprovedDefinitions | undefined): Map<number, DefinitionSet[]> {
  const sets = new Map<string, { major: number; names: Set<string> }>();
  for (const [name, definitions] of live?.tools ?? [])
    for (const d of definitions)
      for (const h of d.holders) {
        const key = `${d.contractMajor} ${h.kind} ${h.version}`;
        const set = sets.get(key) ?? { major: d.contractMajor, names: new Set<string>() };
        set.names.add(name);
        sets.set(key, set);
      }
  const byMajor = new Map<number, DefinitionSet[]>();
  for (const { major, names } of sets.values())
    byMajor.set(major, [...(byMajor.get(major) ?? []), names]);
  return byMajor;
}

/**
 * Every contract major this server serves, the primary one first: its generated code with its
 * handlers and adapters under its own line. A second major gets its own line source and policy
 * revision floor; two contracts of one major are a start-up error.
 */
export async function mountContracts(
  services: RuntimeServices,
  options: ServeOptions,
  /** The live approved definitions the release records name (read once at start). */
  live: ApprovedDefinitions | undefined,
): Promise<MountedContract[]> {
  const held = liveDefinitionSets(live);
  const tagging: DefinitionTagging = {
    ...(live && { approved: live }),
    ...(options.classifyToolChange && { classify: options.classifyToolChange }),
    heldAdapters: options.heldDefinitionAdapters ?? coachHeldDefinitionAdapters,
  };
  const primary = servePrimary(services, options, held.get(services.identity.contractMajor));
  const mounted: MountedContract[] = [
    { path: internalAdapterPath(primaryContract), served: primary, tagging },
  ];
  for (const extra of options.contracts ?? []) {
    const major = extra.contract.pluginIdentity.contractMajor;
    if (mounted.some((m) => m.served.contractMajor === major))
      throw new Error(`contract major ${major} is served twice`);
    const floor = await services.stateGuard?.floorFor(major, extra.lineFile);
    floor?.useStore(services.store);
    floor?.refreshEvery();
    const line = new LineSource(extra.lineFile, floor, (revision, at) =>
      services.logger.warn(
        { contractMajor: major, policyRevision: revision, floor: at },
        "contract line below the revision floor",
      ),
    );
    mounted.push({
      path: internalAdapterPath(extra.contract),
      served: serveContract({
        ...extra,
        line,
        lineFile: extra.lineFile,
        ...(held.has(major) && { live: held.get(major) }),
      }),
      tagging,
    });
  }
  return mounted;
}

type MountedHandlers = { readonly [name: string]: ToolImplementation };
type MountedAdapters = { readonly [name: string]: ToolAdapter };
