import type { ReadResourceResult, Resource } from "@modelcontextprotocol/server";
import { toolDescriptors } from "../../generated/tools.gen.js";
import { projectLayout } from "../../contract-model/project/project-layout.js";
import { listRetainedUi, readRetainedUi } from "../../contract-model/ui/ui-store.js";
import { parseUiUri } from "../../contract-model/ui/ui-uri.js";
import { widgetCsp } from "../../contract-model/ui/widget-csp.js";

/** MIME type of an MCP Apps page (L9). */
export const uiMimeType = "text/html;profile=mcp-app";

/**
 * The resource `_meta` of both pages: MCP Apps `ui` keys plus their OpenAI equivalents, with the
 * contract's widget CSP. It runs on the plugin's one widget origin (L1).
 */
export function uiResourceMeta(widgetOrigin: string): Record<string, unknown> {
  return {
    ui: {
      csp: {
        connectDomains: [...widgetCsp.connectDomains],
        resourceDomains: [...widgetCsp.resourceDomains],
        frameDomains: [...widgetCsp.frameDomains],
        baseUriDomains: [...widgetCsp.baseUriDomains],
      },
      permissions: {},
      domain: widgetOrigin,
      prefersBorder: true,
    },
    "openai/widgetDomain": widgetOrigin,
    "openai/widgetCSP": {
      connect_domains: [...widgetCsp.connectDomains],
      resource_domains: [...widgetCsp.resourceDomains],
    },
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

/** The UI pages the server answers for: fixed at boot, since a URI's bytes never change. */
export interface ServablePages {
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
 * Load every servable page once, at boot, from the content-addressed store under `contracts/ui/`
 * (L10): the active URIs the descriptors bind plus every retained one, each checked against the
 * hash in its address. The runtime never builds pages from `ui/` sources: `ui build --activate`
 * retains what it activates. An active URI without its bytes is a deployment error: rejects with a
 * message that names the fix.
 */
export async function loadUiPages(root: string): Promise<ServablePages> {
  const active = activeUiResources();
  const byUri = new Map<string, Resource>(active.map((r) => [r.uri, r]));
  for (const uri of await listRetainedUi(root))
    if (!byUri.has(uri)) byUri.set(uri, retainedResource(uri));
  const pages = new Map<string, string>();
  await Promise.all(
    [...byUri.keys()].map(async (uri) => {
      const bytes = await readRetainedUi(root, uri);
      if (bytes) pages.set(uri, bytes.toString("utf8"));
    }),
  );
  const missing = active.filter((r) => !pages.has(r.uri)).map((r) => r.uri);
  if (missing.length > 0)
    throw new Error(
      `the active UI page(s) ${missing.join(", ")} are not in the UI store ` +
        `(${projectLayout.uiStore}/); run \`skillpilot ui build --activate\` and commit the store`,
    );
  const resources = [...byUri.values()]
    .filter((r) => pages.has(r.uri))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { resources, pages };
}

/**
 * Serve the UI pages from the URI → bytes map loaded at boot (`loadUiPages`). Requests only look the
 * map up: an unknown URI is answered as not found without touching the disk.
 */
export function createUiResources(loaded: ServablePages, widgetOrigin: string): UiResources {
  const meta = uiResourceMeta(widgetOrigin);
  return {
    list: async () => loaded.resources,
    async read(uri) {
      const text = loaded.pages.get(uri);
      return text === undefined
        ? undefined
        : { contents: [{ uri, mimeType: uiMimeType, text, _meta: meta }] };
    },
  };
}
