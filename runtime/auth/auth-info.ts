import type { AuthInfo } from "@modelcontextprotocol/server";
import type { Caller } from "./auth-runtime.js";

/** The `AuthInfo` the SDK hands to request handlers, carrying the verified caller. */
export function authInfoOf(token: string, caller: Caller, resource: URL): AuthInfo {
  return {
    token,
    clientId: caller.clientId,
    scopes: [...caller.scopes],
    expiresAt: caller.expiresAt,
    resource,
    extra: { caller },
  };
}

/** The caller a request handler sees, from the SDK's `authInfo`. */
export function callerOf(authInfo: AuthInfo | undefined): Caller | undefined {
  return (authInfo?.extra as { caller?: Caller } | undefined)?.caller;
}
