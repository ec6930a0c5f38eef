import type { CoachAdapters, CoachHandlers } from "../generated/handlers.gen.js";
import { coachAdapters } from "./domain/adapters/index.js";
import { coachHandlers } from "./domain/handlers/index.js";
import { LineSource } from "./domain/line-source.js";
import {
  type GeneratedContract,
  type ServedContract,
  serveContract,
  type ToolAdapter,
  type ToolImplementation,
} from "./mcp/served-contract.js";
import type { ApprovedDefinitions } from "../contract-model/approved-definitions.js";
import { primaryContract } from "./primary-contract.js";
import type { CallContext, RuntimeServices } from "./services.js";

/** Another contract major a server serves beside its own (e.g. the next one, or an older one). */
export interface AdditionalContract {
  /** Its generated code (the exports of its project's `generated/` modules). */
  contract: GeneratedContract & { pluginIdentity: { internalAdapterPath?: string } };
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
}

/** A served contract and the internal adapter path it answers on. */
export interface MountedContract {
  path: string;
  served: ServedContract;
}

/** The internal adapter of a contract major (schemas/plugin.json `internalAdapterPath`). */
export const internalAdapterPath = (contract: AdditionalContract["contract"]): string =>
  contract.pluginIdentity.internalAdapterPath ??
  `/internal/openai/v${contract.pluginIdentity.contractMajor}/mcp`;

/** The primary contract major as served, with the given (or the coach's own) implementation. */
export function servePrimary(
  services: RuntimeServices,
  options: ServeOptions = {},
  held?: ReadonlySet<string>,
): ServedContract {
  return serveContract({
    contract: options.contract ?? primaryContract,
    handlers: (options.handlers ?? coachHandlers) as unknown as MountedHandlers,
    adapters: (options.adapters ?? coachAdapters) as unknown as MountedAdapters,
    line: services.line,
    lineFile: services.config.lineFile,
    ...(held && { held }),
  });
}

/**
 * Per contract major, the tool names some live approved definition holds (the project's release
 * records, read once at start): what decides whether a superseded tool is still listed.
 */
function heldToolNames(live: ApprovedDefinitions | undefined): Map<number, Set<string>> {
  const held = new Map<number, Set<string>>();
  for (const [name, definitions] of live?.tools ?? [])
    for (const d of definitions) {
      const names = held.get(d.contractMajor) ?? new Set<string>();
      names.add(name);
      held.set(d.contractMajor, names);
    }
  return held;
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
  const held = heldToolNames(live);
  const primary = servePrimary(services, options, held.get(services.identity.contractMajor));
  const mounted: MountedContract[] = [
    { path: internalAdapterPath(primaryContract), served: primary },
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
        ...(held.has(major) && { held: held.get(major) }),
      }),
    });
  }
  return mounted;
}

type MountedHandlers = { readonly [name: string]: ToolImplementation };
type MountedAdapters = { readonly [name: string]: ToolAdapter };
