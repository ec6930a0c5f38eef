import type { ReadResourceResult, Resource } from "@modelcontextprotocol/server";
import { toolDescriptors } from "../../generated/tools.gen.js";
import { resolveUiResource } from "../../release/ui/ui-store.js";

/** MIME type of an MCP Apps page (L9). */
export const uiMimeType = "text/html;profile=mcp-app";

/**
 * The resource `_meta` of both pages: MCP Apps `ui` keys plus their OpenAI equivalents. The pages
 * are self-contained (inline script and style, `default-src 'none'`), so every CSP list is empty:
 * the widget may load, connect to and frame nothing. It runs on the plugin's one widget origin (L1).
 */
export function uiResourceMeta(widgetOrigin: string): Record<string, unknown> {
  return {
    ui: {
      csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      permissions: {},
      domain: widgetOrigin,
      prefersBorder: true,
    },
    "openai/widgetDomain": widgetOrigin,
    "openai/widgetCSP": { connect_domains: [], resource_domains: [] },
    "openai/widgetPrefersBorder": true,
  };
}

/** The active pages as the descriptors bind them (`release/line.json` activeUi, via the generator). */
function activeUiResources(): Resource[] {
  const byUri = new Map<string, Resource>();
  for (const tool of toolDescriptors) {
    const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    if (uri && !byUri.has(uri)) byUri.set(uri, { uri, name: tool.name.replace(/^(render|start)_skillpilot_/, ""), title: tool.title ?? tool.name, mimeType: uiMimeType });
  }
  return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
}

/** `resources/list` and `resources/read` for the UI pages. */
export interface UiResources {
  list(): Resource[];
  /** The page of a URI — any URI ever served, with identical bytes (L10) — or undefined. */
  read(uri: string): Promise<ReadResourceResult | undefined>;
}

/**
 * Serve the UI pages from the content-addressed store (`resolveUiResource`: the retained copies
 * first, then the current sources, always checked against the hash in the URI). A URI's bytes
 * never change, so a resolved page is cached for the life of the process.
 */
export function createUiResources(root: string, widgetOrigin: string): UiResources {
  const resources = activeUiResources();
  const meta = uiResourceMeta(widgetOrigin);
  const pages = new Map<string, Promise<string | undefined>>();
  return {
    list: () => resources,
    async read(uri) {
      let page = pages.get(uri);
      if (!page) {
        page = resolveUiResource(root, uri).then((found) => found?.html.toString("utf8"));
        pages.set(uri, page);
      }
      const text = await page;
      if (text === undefined) {
        pages.delete(uri); // an unknown URI is not remembered: callers choose them
        return undefined;
      }
      return { contents: [{ uri, mimeType: uiMimeType, text, _meta: meta }] };
    },
  };
}
