import {
  type CallToolRequest,
  createMcpHandler,
  type McpHttpHandler,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceRequest,
  ResourceNotFoundError,
  Server,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import { defaultListingCache } from "../config/config.js";
import type { RuntimeServices } from "../services.js";
import { callerOf } from "../auth/auth-info.js";
import { callTool } from "./dispatch.js";
import {
  type DefinitionTagging,
  type EndpointTags,
  endpointTags,
  STALE_DEFINITION_TAGS_CODE,
  tagDiscoverResults,
} from "./definition-tags.js";
import { staleTagsMeta } from "../../evolution/definition-tags/tag-decision.js";
import { staleTagsMetaKey } from "../../evolution/definition-tags/known-tags.js";
import type { HeldServedTool } from "./held-definitions.js";
import { carriesPrototypeKey } from "./prototype-keys.js";
import { sdkSchemaValidator } from "./sdk-schema-validator.js";
import { tapTraffic } from "./traffic-tap.js";
import type { ServedContract } from "./served-contract.js";
import { createUiResources } from "./ui-resources.js";
import { type LaneProjection, projectPage, projectTools } from "../lanes/lane-projection.js";

/** Whether a request speaks MCP 2026-07-28 or later (its per-request `_meta` envelope names it). */
function modernRequest(ctx: ServerContext): boolean {
  const envelope = (ctx.mcpReq as { envelope?: Record<string, unknown> }).envelope;
  const version = envelope?.["io.modelcontextprotocol/protocolVersion"];
  return typeof version === "string" && version >= "2026-07-28";
}

/**
 * Create the SDK handler without its start-up warning that JSON responses drop mid-call
 * notifications: this server sends none (every result is one JSON answer), so the warning is noise
 * on every start. Any other warning passes through.
 */
export function withoutJsonModeWarning<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("responseMode: 'json' drops")) return;
    warn(...args);
  };
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}

/**
 * The MCP endpoint: SDK v2 `createMcpHandler`, which serves 2026-07-28 requests and falls back to
 * stateless serving for 2025-era clients. The low-level `Server` is used (not
 * `McpServer.registerTool`) so that input is validated once, by the generated validator in
 * `callTool`, and refusals come back as the contract's own stable errors (an unknown tool name as
 * JSON-RPC -32602, which the protocol requires).
 *
 * Everything an endpoint serves with is built here, once per endpoint: server identity and
 * capabilities, the tool list, the UI resources, every request handler and the SDK's JSON Schema
 * validator (sdk-schema-validator.ts). The SDK requires a
 * fresh `Server` instance per request (it refuses an instance that is still serving, and its
 * documentation asks for one per request), so the factory does only that: a `new Server` and five
 * registrations of the handlers built here (about 1 µs). Endpoints share nothing, so a process can
 * serve several side by side, each with its own descriptors, validators and handlers.
 */
export function createCoachMcpHandler(
  services: RuntimeServices,
  contract: ServedContract,
  lane: LaneProjection = { openaiMeta: true },
  /** With `definitionTags` on: the live approved definitions and Contract-Diff's classifier. */
  tagging: DefinitionTagging = {},
): McpHttpHandler {
  const info = { name: services.identity.packageName, version: services.identity.serverBuild };
  // The contract and its content-addressed pages are the same for every caller: 2026-07-28 hosts
  // and shared caches may keep the list results for the configured time (2025-era answers carry no
  // cache fields).
  const { ttlMs, scope } = { ...defaultListingCache, ...services.config.listingCache };
  const hint = { ttlMs, cacheScope: scope };
  const options = {
    capabilities: { tools: {}, resources: {} },
    jsonSchemaValidator: sdkSchemaValidator(),
    cacheHints: {
      "tools/list": hint,
      "resources/list": hint,
      "resources/templates/list": hint,
      "resources/read": hint,
      "server/discover": hint,
    },
  };
  const ui = createUiResources(services.uiPages, services.identity.widgetOrigin);
  // tools/list exactly as generated (the schemas advertised unchanged), without the superseded
  // tools no live approved definition holds any more.
  const tools = projectTools(contract.listing as Tool[], lane);
  // Definition tags (experimental, off by default): the tag and digests of this endpoint's
  // definition set, computed here once; served to 2026-07-28 requests only.
  const tags: EndpointTags | undefined =
    services.config.definitionTags && lane.id
      ? endpointTags(tools, contract.tools, lane.id, contract.contractMajor, tagging)
      : undefined;
  const discoverMemo: { tag?: string } = {};
  const listTools = async (_request: unknown, ctx: ServerContext) =>
    tags && modernRequest(ctx) ? { tools: tags.tools, tag: tags.tag } : { tools };
  const listResources = async () => ({ resources: await ui.list() });
  // Declaring `resources` covers list, read and templates/list: the UI pages are fixed URIs, so
  // there are no templates, but the method answers (an empty list), as clients expect.
  const listResourceTemplates = async () => ({ resourceTemplates: [] });
  const readResource = async (request: ReadResourceRequest) => {
    const result = await ui.read(request.params.uri);
    if (!result) throw new ResourceNotFoundError(request.params.uri);
    return projectPage(result, lane);
  };
  /** tools/call of the instance serving one request (the result is projected for its era). */
  const callToolOn =
    (server: Server, prototypeKey: boolean) =>
    async (request: CallToolRequest, ctx: ServerContext) => {
      const { name, arguments: args } = request.params;
      // The tags a call echoes are decided first: before the tool name, scopes and arguments are
      // looked at, and before any read of a session, so a refused call runs nothing at all.
      const tagged = tags && modernRequest(ctx) ? tagsOfCall(tags, name, request.params._meta) : {};
      // A held definition of a tool changed under its own name that cannot take this call (no
      // adapter, and the current input refuses it) is refused like a stale tag: re-list.
      if (tagged.held && !tagged.held.accepts(args))
        throw staleTagError(
          name,
          "the held definition cannot take this call",
          "Stale definition tag: the tools/list this call was built from holds an earlier " +
            "definition of this tool, which this server serves only for calls today's definition " +
            "takes too; list the tools again",
        );
      const caller = callerOf(ctx.http?.authInfo);
      const result = await callTool(services, contract, name, args, {
        caller,
        prototypeKey,
        ...(lane.id && { lane: lane.id }),
        ...(tagged.held && { served: tagged.held.tool }),
      });
      const projected = server.projectCallToolResult(
        result,
        (tagged.held?.tool ?? contract.tools.get(name))?.outputSchema,
      );
      return tagged.meta && staleTagsMetaKey in tagged.meta
        ? { ...projected, _meta: { ...projected._meta, ...tagged.meta } }
        : projected;
    };
  /** The JSON-RPC error refusing a call for its definition tag (logged with `reason`). */
  const staleTagError = (
    name: unknown,
    reason: string,
    message = "Stale definition tag: the tools/list this call was built from is not one this " +
      "server approves on this endpoint (retired, unknown or another endpoint's); list the tools again",
  ) => {
    const tool = typeof name === "string" && contract.tools.has(name) ? name : "unknown";
    services.logger.info({ toolName: tool, reason }, "tools/call refused: stale definition tag");
    return new ProtocolError(STALE_DEFINITION_TAGS_CODE as ProtocolErrorCode, message, {
      staleTags: ["tools/list"],
    });
  };
  /**
   * The result `_meta` a call's tags add and, for an honoured held definition, what serves it; or
   * the JSON-RPC error that refuses the call.
   */
  const tagsOfCall = (
    endpoint: EndpointTags,
    name: unknown,
    meta: unknown,
  ): { meta?: Record<string, string[]>; held?: HeldServedTool } => {
    const verdict = endpoint.decide(name, meta);
    if (verdict.action === "invalid")
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, verdict.message);
    if (verdict.action === "reject") throw staleTagError(name, verdict.decision.reason);
    return {
      meta: staleTagsMeta(verdict.decision),
      ...(verdict.held && { held: verdict.held }),
    };
  };
  const handler = withoutJsonModeWarning(() =>
    createMcpHandler(
      ({ requestInfo }) => {
        const server = new Server(info, options);
        if (tags && lane.id) tagDiscoverResults(server, lane.id, discoverMemo);
        server.setRequestHandler("tools/list", listTools);
        server.setRequestHandler("resources/list", listResources);
        server.setRequestHandler("resources/templates/list", listResourceTemplates);
        server.setRequestHandler("resources/read", readResource);
        server.setRequestHandler(
          "tools/call",
          callToolOn(server, carriesPrototypeKey(requestInfo)),
        );
        return server;
      },
      {
        responseMode: "json",
        onerror: (error) => services.logger.warn({ err: error.name }, "mcp transport error"),
      },
    ),
  );
  return tapTraffic(handler, services.traffic);
}
