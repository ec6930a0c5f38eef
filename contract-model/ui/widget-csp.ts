/**
 * The widget pages' content security policy in MCP Apps terms. The pages are self-contained
 * (inline script and style, `default-src 'none'`), so every list is empty: a widget may load,
 * connect to and frame nothing. The runtime serves it on every UI resource; the directory lint
 * checks the contract against it.
 */
export const widgetCsp: Readonly<{
  connectDomains: readonly string[];
  resourceDomains: readonly string[];
  frameDomains: readonly string[];
  baseUriDomains: readonly string[];
}> = Object.freeze({
  connectDomains: [],
  resourceDomains: [],
  frameDomains: [],
  baseUriDomains: [],
});
