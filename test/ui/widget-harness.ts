import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";
import type { Wire } from "../support/wire.js";

/** A JSON-RPC message as the pages exchange them with the host. */
export type RpcMessage = {
  jsonrpc: "2.0";
  id?: number;
  method?: string;
  params?: Wire;
  result?: Wire;
  error?: Wire;
};

export interface HostedPage {
  window: JSDOM["window"];
  document: Document;
  /** Every message the page posted to its host, in order. */
  sent: RpcMessage[];
  /** Deliver a message to the page as the host frame would. */
  fromHost(message: RpcMessage): void;
  /** Let queued events (postMessage is asynchronous) run until `done()` holds. */
  until(done: () => boolean, what: string): Promise<void>;
  close(): void;
}

export interface PageOptions {
  /** Run the page inside a host frame (MCP Apps bridge) instead of top level. */
  framed?: boolean;
  /** A `window.openai` object installed before the page script runs. */
  openai?: Record<string, unknown>;
}

/**
 * Load a real `ui/<name>/index.html` into jsdom with its inline script running. When framed,
 * the page's `window.parent` is a second jsdom window standing in for the host; messages the
 * page posts there are recorded in `sent`.
 */
export function loadPage(name: string, options: PageOptions = {}): HostedPage {
  const html = readFileSync(new URL(`../../ui/${name}/index.html`, import.meta.url), "utf8");
  const host = new JSDOM("<!doctype html><title>host</title>", { runScripts: "outside-only" });
  const sent: RpcMessage[] = [];
  host.window.addEventListener("message", (event) => sent.push(event.data));
  const page = new JSDOM(html, {
    runScripts: "dangerously",
    pretendToBeVisual: true,
    beforeParse(window) {
      if (options.framed)
        Object.defineProperty(window, "parent", { value: host.window, configurable: true });
      if (options.openai)
        Object.defineProperty(window, "openai", {
          value: options.openai,
          configurable: true,
          writable: true,
        });
    },
  });
  const window = page.window;
  return {
    window,
    document: window.document,
    sent,
    fromHost(message) {
      window.dispatchEvent(
        new window.MessageEvent("message", { data: message, source: host.window as never }),
      );
    },
    async until(done, what) {
      // Task turns, not a time budget: jsdom delivers postMessage from a zero-delay timer task.
      for (let turn = 0; turn < 200 && !done(); turn += 1)
        await new Promise((resolve) => setTimeout(resolve, 0));
      if (!done()) throw new Error(`page never reached: ${what}`);
    },
    close() {
      window.close();
      host.window.close();
    },
  };
}

/** Answer the page's `ui/initialize` and wait for its `initialized` notification. */
export async function handshake(page: HostedPage): Promise<void> {
  await page.until(
    () => page.sent.some((m) => m.method === "ui/initialize"),
    "ui/initialize request",
  );
  const init = page.sent.find((m) => m.method === "ui/initialize")!;
  page.fromHost({
    jsonrpc: "2.0",
    id: init.id,
    result: {
      protocolVersion: "2026-01-26",
      hostInfo: { name: "test-host", version: "1" },
      hostCapabilities: {},
      hostContext: {},
    },
  });
  await page.until(
    () => page.sent.some((m) => m.method === "ui/notifications/initialized"),
    "initialized notification",
  );
}
