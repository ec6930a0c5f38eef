import {
  createMcpHandler,
  ResourceNotFoundError,
  Server,
  type McpHttpHandler,
  type Tool,
} from "@modelcontextprotocol/server";
import type { CoachHandlers } from "../../generated/handlers.gen.js";
import { toolDescriptors } from "../../generated/tools.gen.js";
import type { CallContext, RuntimeServices } from "../services.js";
import { callerOf } from "../auth/auth-info.js";
import { callTool } from "./dispatch.js";
import { carriesPrototypeKey, guardPrototypeKeys } from "./prototype-keys.js";
import { tapTraffic } from "./traffic-tap.js";
import { createUiResources } from "./ui-resources.js";

/** `tools/list` exactly as generated: the schemas are advertised unchanged. */
const tools = toolDescriptors as unknown as Tool[];
const outputSchemas = new Map(toolDescriptors.map((d) => [d.name, d.outputSchema]));

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
 * stateless serving for 2025-era clients, with one low-level `Server` per request. The low-level
 * server is used (not `McpServer.registerTool`) so that input is validated once, by the generated
 * validator in `callTool`, and refusals come back as the contract's own stable errors (an unknown
 * tool name as JSON-RPC -32602, which the protocol requires).
 */
export function createCoachMcpHandler(
  services: RuntimeServices,
  handlers: CoachHandlers<CallContext>,
): McpHttpHandler {
  const info = { name: services.identity.packageName, version: services.identity.serverBuild };
  const ui = createUiResources(services.uiPages, services.identity.widgetOrigin);
  const handler = withoutJsonModeWarning(() =>
    createMcpHandler(
      ({ requestInfo }) => {
        const prototypeKey = carriesPrototypeKey(requestInfo);
        const server = new Server(info, { capabilities: { tools: {}, resources: {} } });
        server.setRequestHandler("tools/list", async () => ({ tools }));
        server.setRequestHandler("resources/list", async () => ({ resources: await ui.list() }));
        // Declaring `resources` covers list, read and templates/list: the UI pages are fixed URIs,
        // so there are no templates, but the method answers (an empty list), as clients expect.
        server.setRequestHandler("resources/templates/list", async () => ({
          resourceTemplates: [],
        }));
        server.setRequestHandler("resources/read", async (request) => {
          const result = await ui.read(request.params.uri);
          if (!result) throw new ResourceNotFoundError(request.params.uri);
          return result;
        });
        server.setRequestHandler("tools/call", async (request, ctx) => {
          const { name, arguments: args } = request.params;
          const caller = callerOf(ctx.http?.authInfo);
          const result = await callTool(services, handlers, name, args, { caller, prototypeKey });
          return server.projectCallToolResult(result, outputSchemas.get(name));
        });
        return server;
      },
      {
        responseMode: "json",
        onerror: (error) => services.logger.warn({ err: error.name }, "mcp transport error"),
      },
    ),
  );
  return guardPrototypeKeys(tapTraffic(handler, services.traffic));
}
