import type { ToolName, ToolOutput } from "../../generated/handlers.gen.js";
import { callTool } from "../../runtime/mcp/dispatch.js";
import type { ServedContract } from "../../runtime/mcp/served-contract.js";
import { servePrimary } from "../../runtime/served-contracts.js";
import type { RuntimeServices } from "../../runtime/services.js";

const served = new WeakMap<RuntimeServices, ServedContract>();

/**
 * A tool call through the dispatcher in this process (no HTTP, no SDK), as the signed-in learner
 * the session belongs to; arguments travel as JSON, as they do from a client. Throws on an error
 * result.
 */
export async function callInProcess<N extends ToolName>(
  services: RuntimeServices,
  name: N,
  args: Record<string, unknown>,
): Promise<ToolOutput<N>> {
  const session = await services.store.findSession(String(args.learningSessionId));
  const caller = {
    issuer: session?.subject?.issuer ?? "",
    subject: session?.subject?.sub ?? "",
    clientId: "in-process",
    scopes: services.auth.settings.scopesSupported,
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
  const contract = served.get(services) ?? servePrimary(services);
  served.set(services, contract);
  const result = await callTool(services, contract, name, JSON.parse(JSON.stringify(args)), {
    caller,
  });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as ToolOutput<N>;
}
