// The browser side of the test host: a minimal MCP Apps host built on the official AppBridge.
// Bundled by esbuild (test/browser/support/widget-host.ts) and loaded into the host page. Each
// mounted widget gets a sandboxed iframe, a PostMessageTransport and an AppBridge; the widget's
// tools/call goes to `window.hostCallTool`, a Playwright binding that calls the real server.
import {
  AppBridge,
  type McpUiHostContext,
  type McpUiResourceCsp,
  PostMessageTransport,
} from "@modelcontextprotocol/ext-apps/app-bridge";

/** What the Node side passes to `harness.mount`. JSON only: it crosses `page.evaluate`. */
export interface MountOptions {
  /** The widget HTML exactly as resources/read returned it. */
  html: string;
  /** `_meta.ui.csp` of the resource: the host builds the frame's policy from it. */
  csp: McpUiResourceCsp;
  hostContext: McpUiHostContext;
  /**
   * `srcdoc`: an opaque-origin srcdoc frame with the host policy as a leading CSP meta;
   * `origin`: the frame loads `originUrl` (another origin, the policy as an HTTP header).
   */
  mode: "srcdoc" | "origin";
  originUrl?: string;
  /** The frame's height before the first size report (a host's placeholder). */
  initialHeight: number;
  /** The frame's width in CSS pixels. */
  width: number;
  toolInput: Record<string, unknown>;
  /** The CallToolResult the server answered, sent as ui/notifications/tool-result. */
  toolResult: Record<string, unknown>;
  /** Remove the widget's own CSP meta, so only the host's policy applies. */
  stripWidgetCsp?: boolean;
}

/** One thing the host saw, in order. */
export interface HostEvent {
  kind: "initialized" | "size-changed" | "tools/call" | "tools/call failed" | "teardown";
  data?: unknown;
}

declare global {
  interface Window {
    /** Playwright binding: the Node side answers a widget's tools/call (real server). */
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
    harness: typeof harness;
  }
}

/**
 * A CSP for a widget from its declared domains. Empty lists mean nothing is allowed; never `'self'`,
 * which in an opaque srcdoc frame would mean nothing anyway.
 */
export function buildCsp(csp: McpUiResourceCsp | undefined): string {
  const clean = (list?: string[]) =>
    (list ?? []).filter((d) => typeof d === "string" && !/[;,\s'"]/.test(d));
  const resources = clean(csp?.resourceDomains).join(" ");
  const orNone = (list: string) => list || "'none'";
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: blob: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: blob: ${resources}`.trim(),
    `connect-src ${orNone(clean(csp?.connectDomains).join(" "))}`,
    `frame-src ${orNone(clean(csp?.frameDomains).join(" "))}`,
    `base-uri ${orNone(clean(csp?.baseUriDomains).join(" "))}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

const WIDGET_CSP_META = /<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>/i;

/** The page without its own CSP meta (to prove the host's policy alone blocks). */
export function withoutWidgetCsp(html: string): string {
  return html.replace(WIDGET_CSP_META, "");
}

/** The host policy as the first element of <head>, so it covers every script of the page. */
function withCspMeta(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (h) => h + meta) : meta + html;
}

const events: HostEvent[] = [];
let bridge: AppBridge | undefined;
let frame: HTMLIFrameElement | undefined;

/** The host page follows its own theme, as a chat client would. */
function applyHostTheme(ctx: McpUiHostContext): void {
  const dark = ctx.theme === "dark";
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
  document.body.style.background = dark ? "#212121" : "#ffffff";
  document.body.style.color = dark ? "#ececec" : "#0d0d0d";
}

const harness = {
  events,
  buildCsp,
  withoutWidgetCsp,

  /** Mount a widget; resolves once the bridge listens (the widget then initializes by itself). */
  async mount(o: MountOptions): Promise<void> {
    await harness.unmount();
    events.length = 0;
    applyHostTheme(o.hostContext);
    const f = document.createElement("iframe");
    frame = f;
    f.id = "widget";
    f.title = "widget";
    // An opaque origin: the widget can run scripts and talk to the host by postMessage, no more.
    f.setAttribute("sandbox", "allow-scripts");
    f.style.cssText = `display:block;border:0;width:${o.width}px;height:${o.initialHeight}px`;
    document.getElementById("slot")!.appendChild(f);

    // The WindowProxy survives the navigation to srcdoc/src: listen before the page runs, since the
    // widgets send ui/initialize as soon as their script executes.
    const transport = new PostMessageTransport(f.contentWindow!, f.contentWindow!);
    const b = new AppBridge(
      null,
      { name: "skillpilot-test-host", version: "1.0.0" },
      { serverTools: {}, logging: {}, sandbox: { csp: o.csp } },
      { hostContext: o.hostContext },
    );
    bridge = b;
    b.oncalltool = async (params) => {
      events.push({ kind: "tools/call", data: params });
      try {
        return (await window.hostCallTool(params)) as Awaited<
          ReturnType<NonNullable<AppBridge["oncalltool"]>>
        >;
      } catch (error) {
        events.push({ kind: "tools/call failed", data: String(error) });
        throw error;
      }
    };
    b.addEventListener("sizechange", (p) => {
      events.push({ kind: "size-changed", data: p });
      if (typeof p.height === "number") f.style.height = `${p.height}px`;
    });
    b.addEventListener("initialized", () => {
      events.push({ kind: "initialized", data: b.getAppVersion() });
      void (async () => {
        await b.sendToolInput({ arguments: o.toolInput });
        await b.sendToolResult(o.toolResult as Parameters<AppBridge["sendToolResult"]>[0]);
      })();
    });
    await b.connect(transport);
    const html = o.stripWidgetCsp ? withoutWidgetCsp(o.html) : o.html;
    if (o.mode === "srcdoc") f.srcdoc = withCspMeta(html, buildCsp(o.csp));
    else f.src = o.originUrl!;
  },

  /** Change the host context of the mounted widget (ui/notifications/host-context-changed). */
  setHostContext(ctx: McpUiHostContext): void {
    applyHostTheme(ctx);
    bridge!.setHostContext(ctx);
  },

  /** Resize the frame's width, as a host does when its layout changes. */
  setFrameWidth(width: number): void {
    frame!.style.width = `${width}px`;
  },

  frameHeight(): number {
    return frame ? Math.round(frame.getBoundingClientRect().height) : 0;
  },

  /** The last height the widget reported. */
  lastReportedHeight(): number | undefined {
    const sizes = events.filter((e) => e.kind === "size-changed");
    return (sizes.at(-1)?.data as { height?: number } | undefined)?.height;
  },

  /** Tear the widget down (ui/resource-teardown, answered by the widget) and remove the frame. */
  async unmount(): Promise<void> {
    if (!bridge) return;
    try {
      await bridge.teardownResource({}, { timeout: 5000 });
      events.push({ kind: "teardown", data: "answered" });
    } catch (error) {
      events.push({ kind: "teardown", data: String(error) });
    }
    await bridge.close();
    frame?.remove();
    bridge = undefined;
    frame = undefined;
  },
};

window.harness = harness;
