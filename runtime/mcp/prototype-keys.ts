/**
 * Own `__proto__` keys in a tool call (C5, G9): `JSON.parse` keeps `{"__proto__": …}` as an own
 * property, but the SDK's request schemas copy `params` and `arguments` into fresh objects and skip
 * that key, so the contract's validator would never see it and the call would succeed without the
 * key. The edge runs the message policy on the parsed body (`messageVerdict`) and remembers each
 * request whose tool call carries one (at any depth, also at the `params` level); the dispatcher
 * refuses it with INVALID_INPUT, like any other unknown property.
 */
const withPrototypeKey = new WeakSet<Request>();

/** Remember that the HTTP request about to be served carries an own `__proto__` key in a tool call. */
export function rememberPrototypeKey(request: Request): void {
  withPrototypeKey.add(request);
}

/** Whether the HTTP request being served carried an own `__proto__` key in a tool call. */
export function carriesPrototypeKey(request: Request | undefined): boolean {
  return request !== undefined && withPrototypeKey.has(request);
}
