import { laneLaunchUrl } from "../lanes/lane-launch-url.js";
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import type { Caller } from "../auth/auth-runtime.js";
import { bearerChallenge } from "../auth/challenge.js";
import type { ErrorCode } from "../../generated/types.gen.js";
import { CapabilityError } from "../capability/index.js";
import { localizeError } from "../error-table.js";
import type { Locale } from "../i18n/index.js";
import { CoachError } from "../errors.js";
import { logCall, type CallLogFields } from "../observability/call-log.js";
import { logFingerprint } from "../observability/session-fingerprint.js";
import type { CallContext } from "../domain/call-context.js";
import { type CallFacts, factsOf, mergeFacts } from "../domain/call-facts.js";
import { handlerDeps, type RuntimeServices } from "../services.js";
import { refusedInputLocale } from "./input-locale.js";
import type { ServedContract, ServedTool } from "./served-contract.js";
import { AdapterMappingError } from "./served-contract.js";
import { errorResult, successResult } from "./tool-result.js";

/** The stable code of anything a handler threw; unknown failures become INTERNAL_ERROR. */
export function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof CoachError) return error.code;
  if (error instanceof CapabilityError) return error.code;
  return "INTERNAL_ERROR";
}

/** The caller's own session's locale when the gate got that far; English otherwise. */
function localeOf(facts: CallFacts): Locale {
  return facts.locale ?? "en";
}

/**
 * The result code of a call to a name outside the contract: a metric and log label only, since the
 * call is answered with a JSON-RPC error, not a tool result.
 */
const UNKNOWN_TOOL = "UNKNOWN_TOOL";

function record(
  services: RuntimeServices,
  contract: ServedContract,
  tool: string,
  code: ErrorCode | "OK" | typeof UNKNOWN_TOOL,
  facts: CallFacts,
  started: bigint,
  turnDeviation?: string,
): void {
  const { identity, metrics, logger, logHmacKey } = services;
  const latencyMs = Number(process.hrtime.bigint() - started) / 1e6;
  const status = code === "OK" ? "ok" : "error";
  const fields: CallLogFields = {
    contractMajor: contract.contractMajor,
    pluginLine: contract.pluginLine,
    serverBuild: identity.serverBuild,
    toolName: tool,
    status,
    resultCode: code,
    latencyMs: Math.round(latencyMs * 1000) / 1000,
  };
  if (facts.session) {
    fields.sessionFingerprint = logFingerprint(logHmacKey, facts.session.sessionId);
    fields.workflowVersion = facts.session.workflowVersion;
    fields.curriculumRevision = facts.session.curriculumRevision;
    fields.stateSchemaVersion = identity.stateSchemaVersion;
  }
  if (facts.stateVersion !== undefined) fields.stateVersion = facts.stateVersion;
  if (facts.clientRequestId !== undefined) fields.clientRequestId = facts.clientRequestId;
  if (turnDeviation) fields.turnDeviation = turnDeviation;
  logCall(logger, fields);
  const labels = {
    contractMajor: String(contract.contractMajor),
    pluginLine: contract.pluginLine,
    toolName: tool,
    status,
    resultCode: code,
  };
  metrics.calls.inc(labels);
  metrics.latency.observe(labels, latencyMs / 1000);
}

/**
 * `tools/call` for the contract: step 1 (the precompiled validator, exactly once, before anything
 * is hashed, stored or logged) and then the tool's handler; every outcome becomes a tool result
 * and one log line (step 8). A name outside the contract is a protocol error, not a tool
 * execution error (MCP 2025-11-25 and 2026-07-28, server/tools "Error Handling"): it throws JSON-RPC
 * -32602 Invalid params, after its log line and metrics under the tool label `unknown`.
 * `prototypeKey`: the raw arguments had an own `__proto__` key that the SDK dropped before they
 * got here (see prototype-keys.ts); it is refused like any unknown property (C5).
 */
export async function callTool(
  services: RuntimeServices,
  contract: ServedContract,
  name: string,
  args: unknown,
  {
    caller,
    prototypeKey = false,
    lane,
    served: heldServed,
  }: {
    caller?: Caller;
    prototypeKey?: boolean;
    lane?: string;
    /** What serves the call instead of the contract's tool of that name (a held definition). */
    served?: ServedTool;
  } = {},
): Promise<CallToolResult> {
  const started = process.hrtime.bigint();
  const ctx: CallContext = {
    deps: handlerDeps(services),
    contract,
    now: services.now(),
    ...(caller && { caller }),
    ...(lane && { lane }),
  };
  // A name outside the contract is caller text: it is neither logged nor used as a metric label.
  const served = heldServed ?? (typeof name === "string" ? contract.tools.get(name) : undefined);
  if (!served) {
    record(services, contract, "unknown", UNKNOWN_TOOL, {}, started);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(name));
  }
  const tool = served.name;
  ctx.calledTool = tool;
  const refusal = authRefusal(services, served, caller);
  if (refusal) {
    record(services, contract, tool, refusal.code, {}, started);
    const locale = await refusedInputLocale(services, args, caller);
    const error = localizeError(refusal.code, locale, {
      launchUrl: laneLaunchUrl(services.config.launchUrl, lane),
    });
    return errorResult(error, { "mcp/www_authenticate": [refusal.challenge] });
  }
  // The facts of the call's domain work, as its run returned them (or its error carries them).
  let facts: CallFacts = {};
  try {
    if (prototypeKey || !served.validateInput(args ?? {})) throw new CoachError("INVALID_INPUT");
    const ran = await served.run(args, ctx);
    const output = ran.output;
    facts = ran.facts;
    const deviation = services.turnMonitor?.observe({ tool, args, code: "OK", output });
    record(services, contract, tool, "OK", facts, started, deviation);
    return successResult(tool, output as never, ctx.widgetMeta);
  } catch (error) {
    facts = mergeFacts(facts, factsOf(error));
    const code = errorCodeOf(error);
    if (error instanceof AdapterMappingError)
      services.logger.error(
        { toolName: tool, side: error.side },
        "the adapter of a superseded tool or held definition produced a value its schema refuses",
      );
    if (code === "INTERNAL_ERROR")
      services.logger.error(
        {
          toolName: tool,
          err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown",
        },
        "internal error",
      );
    // Refused input named nothing the monitor may trust; every other outcome is part of a turn.
    const deviation =
      code === "INVALID_INPUT" ? undefined : services.turnMonitor?.observe({ tool, args, code });
    record(services, contract, tool, code, facts, started, deviation);
    const locale =
      code === "INVALID_INPUT" && !facts.locale
        ? await refusedInputLocale(services, args, caller)
        : localeOf(facts);
    return errorResult(
      localizeError(code, locale, { launchUrl: laneLaunchUrl(services.config.launchUrl, lane) }),
    );
  }
}

/**
 * Whether the caller may call `tool` at all (before its input is even looked at): a signed-in
 * caller whose token carries every scope the tool's schema declares. The refusal is a tool result
 * whose `_meta["mcp/www_authenticate"]` carries the Bearer challenge, the form a host starts its
 * account linking (or step-up) from; nothing is validated, read or written.
 */
function authRefusal(
  services: RuntimeServices,
  { name: tool, scopes: needed }: ServedTool,
  caller: Caller | undefined,
): { code: ErrorCode; challenge: string } | undefined {
  const { settings } = services.auth;
  if (!caller)
    return {
      code: "AUTHENTICATION_REQUIRED",
      challenge: bearerChallenge({
        resourceMetadata: settings.resourceMetadataUrl,
        scopes: settings.scopesSupported,
      }),
    };
  if (needed.every((s) => caller.scopes.includes(s))) return undefined;
  return {
    code: "INSUFFICIENT_SCOPE",
    challenge: bearerChallenge({
      resourceMetadata: settings.resourceMetadataUrl,
      // What to ask for on step-up: the caller's contract scopes plus the missing ones, so the new
      // grant loses nothing; scopes the contract does not know never go back out (C15).
      scopes: [
        ...new Set([
          ...caller.scopes.filter((s) => settings.scopesSupported.includes(s)),
          ...needed,
        ]),
      ],
      error: "insufficient_scope",
      description: `${tool} needs the scope ${needed.join(" ")}`,
    }),
  };
}

/**
 * The JSON-RPC error message for a name outside the contract. It goes back to the caller only (the
 * log has `unknown`); the name is quoted and cut, so it cannot become an arbitrary-length echo.
 */
function unknownToolMessage(name: unknown): string {
  const shown = typeof name === "string" ? JSON.stringify(name.slice(0, 64)) : "(none)";
  return `Unknown tool: ${shown}. Use only tools listed by tools/list.`;
}
