import type { Server, Tool } from "@modelcontextprotocol/server";
import { sha256Hex } from "../../contract-model/canonical.js";
import { canonicalize } from "../../evolution/definition-tags/canonical-json.js";
import type { ApprovedDefinitions } from "../../evolution/approved-definitions.js";
import { liveDefinitionSets } from "../../evolution/definition-tags/approved-tags.js";
import { definitionTag } from "../../evolution/definition-tags/definition-tag.js";
import { knownTagsMetaKey, readKnownTags } from "../../evolution/definition-tags/known-tags.js";
import {
  decideTag,
  type HeldToolChange,
  type TagDecision,
} from "../../evolution/definition-tags/tag-decision.js";
import { toolDigest, withToolDigest } from "../../evolution/definition-tags/tool-digest.js";
import {
  heldAdapterOf,
  heldAjv,
  type HeldDefinitionAdapters,
  type HeldServedTool,
  serveHeldDefinition,
} from "./held-definitions.js";
import type { ServedTool } from "./served-contract.js";

/**
 * The JSON-RPC error code of a `tools/call` refused for a stale definition tag (its `data` carries
 * `staleTags`). Experimental: the draft allocates no code yet; this one sits in the range JSON-RPC
 * leaves to servers and no MCP code uses.
 */
export const STALE_DEFINITION_TAGS_CODE = -32012;

/** Most methods a request's `knownTags` may name; a map naming more is refused as invalid. */
export const MAX_KNOWN_TAGS = 16;

/**
 * Contract-Diff's class of a tool's change from a held definition to the current one. The runtime
 * does not run Contract-Diff itself: the CLI hands it in (`checks/diff/tool-change-class.ts`);
 * without one, every change counts as incompatible (honoured only while the held definition is
 * still served, refused otherwise), which never serves a call under a definition it was not
 * built for.
 */
export type ToolChangeClassifier = (
  held: Record<string, unknown>,
  current: Record<string, unknown>,
) => Exclude<HeldToolChange, "not-current">;

/** What one endpoint needs to tag its listing and decide calls: computed once, at its start. */
export interface DefinitionTagging {
  /** The live approved definitions of the release records (each published release not retired, the frozen draft). */
  approved?: ApprovedDefinitions;
  classify?: ToolChangeClassifier;
  /**
   * How held definitions of tools that changed incompatibly under their own name are served (by
   * tool, then by a release version holding the definition); without one such a definition is
   * served only for calls the current input accepts too.
   */
  heldAdapters?: HeldDefinitionAdapters;
}

/** A call's answer to the tags it sent. */
export type TagVerdict =
  | {
      action: "serve";
      decision: TagDecision;
      /** Honour of a held definition of a tool changed under its own name: what runs the call. */
      held?: HeldServedTool;
    }
  | { action: "reject"; decision: TagDecision }
  | { action: "invalid"; message: string };

/** An endpoint's definition set: its tag, its listing with digests, and the call decisions. */
export interface EndpointTags {
  /** The definition tag of the endpoint's complete `tools/list` on its lane. */
  tag: string;
  /** The listing with each tool's digest in `_meta["io.modelcontextprotocol/digest"]`. */
  tools: Tool[];
  /** The decision for a `tools/call` of `name` whose request `_meta` is `meta`. */
  decide(name: unknown, meta: unknown): TagVerdict;
}

interface HeldTool {
  digest: string;
  /** Contract-Diff's class of the change to the current definition (absent: unchanged or gone). */
  change?: Exclude<HeldToolChange, "not-current">;
  /** An incompatible change under the same name: the held definition as the server serves it. */
  served?: HeldServedTool;
}

/** The tools an endpoint answers: every callable name, and (on a real endpoint) each served tool. */
export interface CallableTools {
  has(name: string): boolean;
  get?(name: string): ServedTool | undefined;
}

/**
 * Tag one endpoint: the tag of `listing` on `lane`, and each live approved set of `contractMajor`
 * on that lane with each of its tools' digest and change class. `callable`: every tool name a call
 * may use (the listing and the superseded tools served through their adapters). All of it is
 * computed here, once per endpoint; a call costs a map lookup or two.
 *
 * A held definition whose tool changed incompatibly is honoured while its name is callable: the
 * server serves every live approved definition (old names through their adapters, results naming
 * tools as the caller's definitions do), which the release gates and `verify --live` prove per
 * holder before a release; one whose tool is not served at all is refused.
 */
export function endpointTags(
  listing: readonly Tool[],
  callable: CallableTools,
  lane: string,
  contractMajor: number,
  tagging: DefinitionTagging,
): EndpointTags {
  const tools = listing.map((t) => withToolDigest(t as Tool & Record<string, unknown>));
  const current = new Map(listing.map((t) => [t.name, toolDigest(t)] as const));
  const descriptorOf = new Map(listing.map((t) => [t.name, t as Record<string, unknown>]));
  const tag = definitionTag(lane, current.values());
  const held = heldSets(tagging, lane, contractMajor, current, descriptorOf, callable);
  const decide = (name: unknown, meta: unknown): TagVerdict => {
    const map = (meta as Record<string, unknown> | undefined)?.[knownTagsMetaKey];
    if (map !== null && typeof map === "object" && tooManyEntries(map))
      return {
        action: "invalid",
        message:
          `Invalid params: _meta["${knownTagsMetaKey}"] names more than ${MAX_KNOWN_TAGS} ` +
          "methods; send only the tags of the list results the call was built from",
      };
    const knownTag = readKnownTags(meta, { maxEntries: MAX_KNOWN_TAGS }).tags.get("tools/list");
    const tool = typeof name === "string" ? name : "";
    const set = knownTag === undefined ? undefined : held.get(knownTag);
    const decision = decideTag({
      mode: "on",
      ...(knownTag !== undefined && { knownTag }),
      currentTag: tag,
      heldDigest: () => (set ? { digest: set.get(tool)?.digest, live: true } : { live: false }),
      currentDigest: current.get(tool),
      classify: () => set?.get(tool)?.change ?? "incompatible",
      serves: () => callable.has(tool),
    });
    if (decision.action === "reject") return { action: "reject", decision };
    const served = decision.action === "honour" ? set?.get(tool)?.served : undefined;
    return served ? { action: "serve", decision, held: served } : { action: "serve", decision };
  };
  return { tag, tools, decide };
}

/** Whether an object has more own keys than MAX_KNOWN_TAGS, counting no further than that. */
function tooManyEntries(map: object): boolean {
  let n = 0;
  for (const key in map) if (Object.hasOwn(map, key) && ++n > MAX_KNOWN_TAGS) return true;
  return false;
}

/**
 * Each live approved set of one contract major on one lane, by its tag: every tool's digest and,
 * where it differs from the current definition, Contract-Diff's class of the change; a held
 * definition of a current tool that changed incompatibly comes with the tool that serves it
 * (validators compiled here, once per definition).
 */
function heldSets(
  { approved, classify, heldAdapters }: DefinitionTagging,
  lane: string,
  contractMajor: number,
  current: ReadonlyMap<string, string>,
  descriptorOf: ReadonlyMap<string, Record<string, unknown>>,
  callable: CallableTools,
): Map<string, Map<string, HeldTool>> {
  const out = new Map<string, Map<string, HeldTool>>();
  if (!approved) return out;
  const tools = new Map(
    [...approved.tools]
      .map(([name, defs]) => [name, defs.filter((d) => d.contractMajor === contractMajor)] as const)
      .filter(([, defs]) => defs.length > 0),
  );
  const holders = approved.holders.filter((h) =>
    [...tools.values()].some((defs) =>
      defs.some((d) => d.holders.some((x) => x.kind === h.kind && x.version === h.version)),
    ),
  );
  const byDigest = new Map<string, Record<string, unknown>>();
  const versionsOf = new Map<string, string[]>();
  for (const defs of tools.values())
    for (const d of defs) {
      const digest = toolDigest(d.descriptor);
      byDigest.set(digest, d.descriptor);
      versionsOf.set(
        `${digest} ${d.tool}`,
        d.holders.map((h) => h.version),
      );
    }
  const classes = new Map<string, Exclude<HeldToolChange, "not-current">>();
  const servedHeld = new Map<string, HeldServedTool | undefined>();
  let ajv: ReturnType<typeof heldAjv> | undefined;
  const ajvOnce = () => {
    ajv ??= heldAjv();
    return ajv;
  };
  const serveHeld = (name: string, digest: string, descriptor: Record<string, unknown>) => {
    const key = `${digest} ${name}`;
    if (servedHeld.has(key)) return servedHeld.get(key);
    const tool = callable.get?.(name);
    const adapter = heldAdapterOf(heldAdapters, name, versionsOf.get(key) ?? []);
    const served = tool?.runAs
      ? serveHeldDefinition(tool, descriptor, adapter, ajvOnce())
      : undefined;
    servedHeld.set(key, served);
    return served;
  };
  for (const set of liveDefinitionSets({ ...approved, tools, holders }, [lane])) {
    const entries = new Map<string, HeldTool>();
    for (const [name, digest] of Object.entries(set.digests)) {
      const now = descriptorOf.get(name);
      const heldDescriptor = byDigest.get(digest);
      if (!now || !heldDescriptor) {
        entries.set(name, { digest });
        continue;
      }
      // The same definition, `_meta` included (the digest leaves it out): nothing to classify.
      if (current.get(name) === digest && canonicalize(heldDescriptor) === canonicalize(now)) {
        entries.set(name, { digest, change: "server-only" });
        continue;
      }
      const key = `${digest} ${name}`;
      let change = classes.get(key);
      if (change === undefined) {
        change = classify ? classify(heldDescriptor, now) : "incompatible";
        classes.set(key, change);
      }
      const served =
        change === "incompatible" ? serveHeld(name, digest, heldDescriptor) : undefined;
      entries.set(name, served ? { digest, change, served } : { digest, change });
    }
    out.set(set.tags[lane], entries);
  }
  return out;
}

/** The scheme name of a `server/discover` result's tag input (never a `tools/list` tag's). */
const discoverTagScheme = "skillpilot-discover-tag/1";

/**
 * The tag of a `server/discover` result on a lane: `sha256:` + hex SHA-256 of the RFC 8785 form of
 * `{"lane", "method": "server/discover", "result": the result as the handler built it (supported
 * versions, capabilities, instructions; no `_meta` or cache fields), "scheme"}`. Like a
 * `tools/list` tag it depends on what is served alone, so every instance and restart agrees.
 */
export function discoverTag(lane: string, result: Record<string, unknown>): string {
  const { _meta: _omitted, ...served } = result;
  return `sha256:${sha256Hex(
    canonicalize({ lane, method: "server/discover", result: served, scheme: discoverTagScheme }),
  )}`;
}

/**
 * Make an SDK `Server` instance tag its `server/discover` results. The SDK installs that handler
 * itself once the instance is marked as serving 2026-07-28 (after the endpoint's factory returns),
 * so the instance's `setRequestHandler` is wrapped to wrap that one handler as it is installed; the
 * tag is computed from the first result and kept in `memo`, shared by every instance of an endpoint.
 */
export function tagDiscoverResults(server: Server, lane: string, memo: { tag?: string }): void {
  type Handler = (request: never, ctx: never) => unknown;
  type Install = (...args: unknown[]) => void;
  const install = server.setRequestHandler.bind(server) as unknown as Install;
  (server as unknown as { setRequestHandler: Install }).setRequestHandler = (...args) => {
    const [method, handler] = args as [string, Handler];
    if (method !== "server/discover" || args.length !== 2) return install(...args);
    install(method, async (request: never, ctx: never) => {
      const result = (await handler(request, ctx)) as Record<string, unknown>;
      memo.tag ??= discoverTag(lane, result);
      return { ...result, tag: memo.tag };
    });
  };
}
