/**
 * The params of the requests the SDK answers itself (initialize, the list methods, resources/read),
 * checked at the edge: the SDK refuses params its own schema rejects with JSON-RPC -32603 Internal
 * error and its raw validation dump, where a client is owed -32602 Invalid params and a reason.
 * Only what the specification requires of each method is checked; anything it allows passes on.
 */

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

type ParamsCheck = (params: unknown) => string | undefined;

/** Params that may be left out, else an object whose `cursor`, if given, is a string. */
const listParams: ParamsCheck = (params) => {
  if (params === undefined) return undefined;
  if (!isObject(params)) return "params must be an object";
  if (params.cursor !== undefined && typeof params.cursor !== "string")
    return "params.cursor must be a string";
  return undefined;
};

const CHECKS: Readonly<Record<string, ParamsCheck>> = {
  initialize: (params) => {
    if (!isObject(params)) return "params must be an object";
    if (typeof params.protocolVersion !== "string")
      return "params.protocolVersion must be a string";
    if (!isObject(params.capabilities)) return "params.capabilities must be an object";
    const info = params.clientInfo;
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
      return "params.clientInfo must be an object with a string name and version";
    return undefined;
  },
  "tools/list": listParams,
  "resources/list": listParams,
  "resources/templates/list": listParams,
  "resources/read": (params) => {
    if (!isObject(params)) return "params must be an object";
    return typeof params.uri === "string" ? undefined : "params.uri must be a string";
  },
};

/**
 * Why a message's params are not what its method requires (undefined: they are, or the method is
 * not one of those checked here, or not one of `revision`, the request's protocol revision). Own
 * keys only: a method named `constructor` checks nothing.
 */
export function paramsProblem(message: unknown, revision: string | null): string | undefined {
  if (!isObject(message) || typeof message.method !== "string") return undefined;
  if (!Object.hasOwn(CHECKS, message.method)) return undefined;
  // From 2026-07-28 on there is no `initialize`: the SDK answers it as an unknown method.
  if (message.method === "initialize" && revision !== null && revision >= "2026-07-28")
    return undefined;
  return CHECKS[message.method](message.params);
}
