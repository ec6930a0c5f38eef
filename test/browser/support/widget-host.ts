import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import type { CoachClient, ToolResult } from "../../runtime/support/mcp-clients.js";
import type { WireObject } from "../../support/wire.js";
import type { MountOptions } from "./host/host.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The two browser scripts, bundled once per process (in memory; nothing is written). */
interface Bundles {
  host: string;
  probe: string;
}
let bundles: Promise<Bundles> | undefined;

function bundle(entry: string): Promise<string> {
  return build({
    entryPoints: [path.join(here, "host", entry)],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    minify: true,
    write: false,
    logLevel: "warning",
  }).then((r) => r.outputFiles[0].text);
}

/** esbuild the host harness (AppBridge and friends) and the in-page probe for the browser. */
export function browserScripts(): Promise<Bundles> {
  bundles ??= Promise.all([bundle("host.ts"), bundle("frame-probe.ts")]).then(([host, probe]) => ({
    host,
    probe,
  }));
  return bundles;
}

/** A UI resource as a host reads it: tools/list → `_meta.ui.resourceUri` → resources/read. */
export interface Widget {
  uri: string;
  html: string;
  mimeType?: string;
  csp: MountOptions["csp"];
}

export async function readWidget(client: CoachClient, toolName: string): Promise<Widget> {
  const { tools } = (await client.listTools()) as { tools: WireObject[] };
  const uri = tools.find((t) => t.name === toolName)?._meta?.ui?.resourceUri as string | undefined;
  if (!uri) throw new Error(`${toolName} has no _meta.ui.resourceUri`);
  const { contents } = await client.readResource(uri);
  const [page] = contents;
  return {
    uri,
    html: page.text as string,
    mimeType: page.mimeType,
    csp: (page._meta as WireObject).ui.csp,
  };
}

/**
 * The host's web server: the host page and its script on `hostOrigin`; widgets for `origin` mode
 * on `widgetOrigin` (same port, another hostname, so another origin) with their CSP as a header;
 * and `/probe`, which counts the requests that reach it.
 */
export interface HostServer {
  hostUrl: string;
  widgetOrigin: string;
  probeUrl: string;
  probeHits(): number;
  /** Serve `html` at a fresh URL on the widget origin with `csp` as its policy header. */
  serveWidget(html: string, csp: string): string;
  close(): Promise<void>;
}

export async function startHostServer(): Promise<HostServer> {
  const { host } = await browserScripts();
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title>' +
    "<style>body{margin:0;padding:16px;font:14px system-ui,sans-serif}#slot{display:inline-block}</style>" +
    '</head><body><div id="slot"></div><script src="/host.js"></script></body></html>';
  const widgets = new Map<string, { html: string; csp: string }>();
  let hits = 0;
  let next = 0;
  const send = (res: http.ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store" });
    res.end(body);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host.invalid");
    if (url.pathname === "/") return send(res, 200, "text/html; charset=utf-8", page);
    if (url.pathname === "/host.js") return send(res, 200, "text/javascript", host);
    if (url.pathname === "/favicon.ico") return send(res, 204, "image/x-icon", "");
    if (url.pathname === "/probe") {
      hits++;
      res.setHeader("access-control-allow-origin", "*");
      return send(res, 200, "text/plain", "probe");
    }
    const widget = widgets.get(url.pathname);
    if (widget) {
      res.setHeader("content-security-policy", widget.csp);
      return send(res, 200, "text/html; charset=utf-8", widget.html);
    }
    send(res, 404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const widgetOrigin = `http://localhost:${port}`;
  return {
    hostUrl: `http://127.0.0.1:${port}/`,
    widgetOrigin,
    probeUrl: `http://127.0.0.1:${port}/probe`,
    probeHits: () => hits,
    serveWidget(html, csp) {
      const key = `/widget/${++next}`;
      widgets.set(key, { html, csp });
      return `${widgetOrigin}${key}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Host context as a chat client sends it (MCP Apps `McpUiHostContext`). */
export function hostContext(
  theme: "light" | "dark",
  options: { locale?: string; variables?: boolean } = {},
): MountOptions["hostContext"] {
  const variables =
    theme === "dark"
      ? {
          "--color-background-primary": "#1e1f22",
          "--color-background-secondary": "#2b2d31",
          "--color-text-primary": "#f2f3f5",
          "--color-text-secondary": "#b5bac1",
          "--color-border-primary": "#4e5058",
          "--color-border-secondary": "#949ba4",
        }
      : {
          "--color-background-primary": "#fbfbfa",
          "--color-background-secondary": "#eeeeec",
          "--color-text-primary": "#111111",
          "--color-text-secondary": "#55554f",
          "--color-border-primary": "#d4d4d0",
          "--color-border-secondary": "#75756f",
        };
  return {
    theme,
    locale: options.locale ?? "en-US",
    platform: "web",
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { maxWidth: 560, maxHeight: 800 },
    ...(options.variables && { styles: { variables } }),
  } as MountOptions["hostContext"];
}

/** A host page in its own browser context, with the tools/call binding to the real server. */
export interface HostPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the host page and the widget. */
  errors: string[];
  /** Every tools/call the widget made, as the server received it. */
  calls: { name: string; arguments: WireObject }[];
  /** What the server answered to each of those calls, in brief: for a test's failure message. */
  answers: string[];
  /**
   * Lose the answer of the next tools/call after the server applied it, as a dropped connection
   * would: the widget sees a transport error.
   */
  loseNextAnswer(): void;
  /**
   * Never answer the next tools/call (after the server applied it), as a host that hangs would.
   */
  holdNextAnswer(): void;
  /** Mount a widget and return its frame once it is connected and the result is sent. */
  mount(widget: Widget, options: MountSpec): Promise<Frame>;
  /** The last height the widget reported, and the frame's height. */
  sizes(): Promise<{ reported: number | undefined; frame: number }>;
  close(): Promise<void>;
}

/** What a test chooses for a mount; the rest comes from the widget as served. */
export interface MountSpec {
  hostContext: MountOptions["hostContext"];
  toolInput: WireObject;
  toolResult: ToolResult | WireObject;
  initialHeight?: number;
  width?: number;
  mode?: MountOptions["mode"];
  csp?: MountOptions["csp"];
  stripWidgetCsp?: boolean;
}

export async function openHostPage(
  browser: Browser,
  server: HostServer,
  client: CoachClient,
  options: { colorScheme: "light" | "dark" },
): Promise<HostPage> {
  const { probe } = await browserScripts();
  const context = await browser.newContext({
    colorScheme: options.colorScheme,
    viewport: { width: 640, height: 800 },
    deviceScaleFactor: 1,
  });
  // A step that waits for something that never comes fails on its own, naming what it waited
  // for, before the test's timeout ends the test with no word of where it stood.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  const calls: HostPage["calls"] = [];
  const answers: string[] = [];
  let loseNext = false;
  let holdNext = false;
  await page.exposeFunction(
    "hostCallTool",
    async (params: { name: string; arguments?: WireObject }): Promise<WireObject> => {
      calls.push({ name: params.name, arguments: params.arguments ?? {} });
      const result = await client.callTool(params.name, params.arguments ?? {});
      answers.push(briefAnswer(params.name, result));
      if (loseNext) {
        loseNext = false;
        throw new Error("connection lost (test)");
      }
      if (holdNext) {
        holdNext = false;
        return new Promise<WireObject>(() => undefined);
      }
      return result;
    },
  );
  await page.goto(server.hostUrl);
  await page.waitForFunction(() => typeof window.harness === "object");
  return {
    context,
    page,
    errors,
    calls,
    answers,
    loseNextAnswer() {
      loseNext = true;
    },
    holdNextAnswer() {
      holdNext = true;
    },
    async mount(widget, spec) {
      const mode = spec.mode ?? "srcdoc";
      const csp = spec.csp ?? widget.csp;
      let originUrl: string | undefined;
      if (mode === "origin") {
        const html = spec.stripWidgetCsp
          ? await page.evaluate((h) => window.harness.withoutWidgetCsp(h), widget.html)
          : widget.html;
        originUrl = server.serveWidget(
          html,
          await page.evaluate((c) => window.harness.buildCsp(c), csp as WireObject),
        );
      }
      const mount: MountOptions = {
        html: widget.html,
        csp,
        hostContext: spec.hostContext,
        mode,
        originUrl,
        initialHeight: spec.initialHeight ?? 150,
        width: spec.width ?? 560,
        toolInput: spec.toolInput,
        toolResult: spec.toolResult as WireObject,
        stripWidgetCsp: spec.stripWidgetCsp,
      };
      // JSON only crosses into the page: cast at the boundary (the SDK types are too deep for it).
      await page.evaluate((o) => window.harness.mount(o as MountOptions), mount as WireObject);
      await page.waitForFunction(() => window.harness.events.some((e) => e.kind === "initialized"));
      const frame = await (await page.waitForSelector("#widget")).contentFrame();
      if (!frame) throw new Error("the widget frame has no document");
      await frame.evaluate(probe);
      return frame;
    },
    async sizes() {
      return page.evaluate(() => ({
        reported: window.harness.lastReportedHeight(),
        frame: window.harness.frameHeight(),
      }));
    },
    async close() {
      await context.close();
    },
  };
}

/** A tool result in one line: the tool, and its error code or the keys of what it returned. */
function briefAnswer(name: string, result: WireObject): string {
  const out = result.structuredContent as WireObject | undefined;
  if (result.isError)
    return `${name}: error ${JSON.stringify(out?.error ?? out ?? result.content)}`;
  return `${name}: ok ${Object.keys(out ?? {}).join(",")}`;
}
