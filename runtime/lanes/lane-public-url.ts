/**
 * Paths this server answers itself (the start page, the launch API, OAuth and well-known
 * documents, health, metrics, internal adapters): a lane's public MCP URL may not be one of them
 * or below one, or the lane's OAuth resource would name a page that is not an MCP endpoint.
 */
export const reservedPublicPaths = [
  "/start",
  "/api",
  "/.well-known",
  "/healthz",
  "/metrics",
  "/internal",
] as const;

/**
 * What is wrong with a lane's configured public URL beyond its origin, or undefined: credentials
 * in it (a URL with userinfo would be advertised without them, silently), no path (a bare origin
 * is not an MCP endpoint), a reserved path, a query or a fragment.
 */
export function lanePublicUrlProblem(url: URL): string | undefined {
  if (url.username || url.password)
    return "carries credentials (user:password@); put them nowhere in a public URL";
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "") return "names no path: give the lane's MCP endpoint, e.g. /mcp";
  const reserved = reservedPublicPaths.find((r) => path === r || path.startsWith(`${r}/`));
  if (reserved)
    return `uses the path ${reserved}, which this server answers itself (${reservedPublicPaths.join(", ")} are reserved)`;
  if (url.search || url.hash) return "carries a query or fragment";
  return undefined;
}

/** A URL as messages may show it: without any user:password@ it carries. */
export const shownUrl = (url: URL): string =>
  `${url.protocol}//${url.host}${url.pathname}${url.search}${url.hash}`;
