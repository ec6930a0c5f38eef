import assert from "node:assert/strict";
import { renderGoalVisualization } from "../../runtime/domain/goal-visualization.js";
import { handshake, loadPage, type HostedPage } from "./widget-harness.js";

const svg = renderGoalVisualization({
  goalId: "algebra.linear-equations",
  title: "Solve linear equations",
  skillTitle: "Algebra basics",
  prerequisites: ["Simplify terms"],
  status: "active",
});
const meta = (image: string) => ({ "skillpilot/goalVisualization": { svg: image } });
const toolResult = (image: string) => ({
  content: [{ type: "text", text: "Goal image shown." }],
  structuredContent: { rendered: true, goalId: "algebra.linear-equations", stateVersion: 4 },
  _meta: meta(image),
});

const state = (page: HostedPage) =>
  page.document.getElementById("goal")!.getAttribute("data-state");

describe("ui/goal-visualization page (issue #4, L9)", () => {
  let page: HostedPage | undefined;
  afterEach(() => page?.close());

  it(
    "initializes over the MCP Apps bridge and shows the SVG from the tool " + "result _meta (L9)",
    async () => {
      page = loadPage("goal-visualization", { framed: true });
      await handshake(page);
      assert.equal(page.sent[0]!.method, "ui/initialize");
      page.fromHost({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-result",
        params: toolResult(svg),
      });
      assert.equal(state(page), "shown");
      const shown = page.document.querySelector("#goal svg")!;
      assert.match(shown.textContent!, /Solve linear equations/);
      await page.until(
        () => page!.sent.some((m) => m.method === "ui/notifications/size-changed"),
        "size report",
      );
    },
  );

  it(
    "shows the SVG from window.openai.toolResponseMetadata, present at load or " + "set later (L9)",
    async () => {
      page = loadPage("goal-visualization", { openai: { toolResponseMetadata: meta(svg) } });
      assert.equal(state(page), "shown");
      page.close();

      const openai: Record<string, unknown> = {};
      page = loadPage("goal-visualization", { openai });
      assert.equal(state(page), "waiting");
      openai.toolResponseMetadata = meta(svg);
      page.window.dispatchEvent(new page.window.Event("openai:set_globals"));
      assert.equal(state(page), "shown");
    },
  );

  it(
    "refuses SVG with script, event handlers or external references and shows a " +
      "visible error (C15)",
    async () => {
      const attacks = [
        svg.replace("</svg>", "<script>window.hacked=1</script></svg>"),
        svg.replace("<rect ", `<rect onload="window.hacked=1" `),
        svg.replace(
          "</svg>",
          `<image href="https://evil.example/x.png" width="1" height="1"/></svg>`,
        ),
        svg.replace(
          "</svg>",
          `<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`,
        ),
        svg.replace(`fill="#ffffff"`, `fill="url(https://evil.example/#p)"`),
        "<svg", // not well formed
        `<html><script>window.hacked=1</script></html>`,
      ];
      for (const attack of attacks) {
        page?.close();
        page = loadPage("goal-visualization", { framed: true });
        await handshake(page);
        page.fromHost({
          jsonrpc: "2.0",
          method: "ui/notifications/tool-result",
          params: toolResult(attack),
        });
        assert.equal(state(page), "error", attack.slice(0, 60));
        assert.equal(page.document.querySelector("#goal svg"), null);
        assert.equal((page.window as unknown as { hacked?: number }).hacked, undefined);
        assert.match(
          page.document.getElementById("goal")!.textContent!,
          /could not be shown.*continues in the chat/,
        );
      }
    },
  );

  it("shows the error state for an error result or a result without the image (C14)", async () => {
    page = loadPage("goal-visualization", { framed: true });
    await handshake(page);
    page.fromHost({
      jsonrpc: "2.0",
      method: "ui/notifications/tool-result",
      params: { isError: true, content: [] },
    });
    assert.equal(state(page), "error");
    page.close();
    page = loadPage("goal-visualization", { framed: true });
    await handshake(page);
    page.fromHost({
      jsonrpc: "2.0",
      method: "ui/notifications/tool-result",
      params: { content: [], _meta: {} },
    });
    assert.equal(state(page), "error");
  });

  it("ignores messages that do not come from the host frame", async () => {
    page = loadPage("goal-visualization", { framed: true });
    await handshake(page);
    const message = {
      jsonrpc: "2.0",
      method: "ui/notifications/tool-result",
      params: toolResult(svg),
    };
    page.window.dispatchEvent(
      new page.window.MessageEvent("message", { data: message, source: null }),
    );
    assert.equal(state(page), "waiting");
  });
});
