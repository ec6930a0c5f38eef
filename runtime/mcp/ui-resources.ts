import type { ReadResourceResult, Resource } from "@modelcontextprotocol/server";
import { toolDescriptors } from "../../generated/tools.gen.js";
import { listServableUi, resolveUiResource } from "../../release/ui/ui-store.js";
import { parseUiUri } from "../../release/ui/ui-uri.js";

/** MIME type of an MCP Apps page (L9). */
export const uiMimeType = "text/html;profile=mcp-app";

/**
 * The resource `_meta` of both pages: MCP Apps `ui` keys plus their OpenAI equivalents. The pages
 * are self-contained (inline script and style, `default-src 'none'`), so every CSP list is empty:
 * the widget may load, connect to and frame nothing. It runs on the plugin's one widget origin
 * (L1).
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

/**
 * The active pages as the descriptors bind them (`release/line.json` activeUi, via the generator).
 */
function activeUiResources(): Resource[] {
  const byUri = new Map<string, Resource>();
  for (const tool of toolDescriptors) {
    const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    if (uri && !byUri.has(uri))
      byUri.set(uri, {
        uri,
        name: tool.name.replace(/^(render|start)_skillpilot_/, ""),
        title: tool.title ?? tool.name,
        mimeType: uiMimeType,
      });
  }
  return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : 1));
}

/** `resources/list` and `resources/read` for the UI pages. */
export interface UiResources {
  /** The active pages and every retained (published) one (L10). */
  list(): Promise<Resource[]>;
  /** The page of a URI — any URI ever served, with identical bytes (L10) — or undefined. */
  read(uri: string): Promise<ReadResourceResult | undefined>;
}

/** What the server answers for UI resources: fixed at boot, since a URI's bytes never change. */
interface ServablePages {
  resources: Resource[];
  /** URI → page text, verified against the hash in the URI. */
  pages: Map<string, string>;
}

/**
 * A retained page that is no longer bound by a descriptor: named by its address, since its bytes
 * are all that is kept.
 */
function retainedResource(uri: string): Resource {
  const short = parseUiUri(uri)?.sha256.slice(0, 12) ?? "unknown";
  return {
    uri,
    name: `published-${short}`,
    title: `Published SkillPilot Coach page sha256-${short}`,
    mimeType: uiMimeType,
  };
}

/**
 * Resolve every servable URI once: the active ones the descriptors bind plus everything
 * `listServableUi` names (the line's activeUi and the retained store). A URI whose bytes cannot be
 * found or do not match its hash is left out. Never rejects: a broken store serves the active pages
 * it can.
 */
async function loadServablePages(root: string): Promise<ServablePages> {
  const active = activeUiResources();
  const servable = await listServableUi(root).catch(() => []);
  const byUri = new Map<string, Resource>(active.map((r) => [r.uri, r]));
  for (const { uri } of servable) if (!byUri.has(uri)) byUri.set(uri, retainedResource(uri));
  const pages = new Map<string, string>();
  await Promise.all(
    [...byUri.keys()].map(async (uri) => {
      const found = await resolveUiResource(root, uri).catch(() => undefined);
      if (found) pages.set(uri, found.html.toString("utf8"));
    }),
  );
  const resources = [...byUri.values()]
    .filter((r) => pages.has(r.uri))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { resources, pages };
}

/**
 * Serve the UI pages from a URI → bytes map built once, when the endpoint is created at boot, from
 * the content-addressed store (`resolveUiResource`: the retained copies first, then the current
 * sources, always checked against the hash in the URI). Requests only look the map up: an unknown
 * URI is answered as not found without touching the disk or rebuilding the sources.
 */
export function createUiResources(root: string, widgetOrigin: string): UiResources {
  const meta = uiResourceMeta(widgetOrigin);
  const loaded = loadServablePages(root);
  return {
    list: async () => (await loaded).resources,
    async read(uri) {
      const text = (await loaded).pages.get(uri);
      return text === undefined
        ? undefined
        : { contents: [{ uri, mimeType: uiMimeType, text, _meta: meta }] };
    },
  };
}
