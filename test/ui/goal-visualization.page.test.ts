import assert from "node:assert/strict";
import {
  renderGoalVisualization,
  renderNarrowGoalVisualization,
} from "../../runtime/domain/goal-visualization.js";
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

  describe("picks the layout so no text renders below 12 px (L9)", () => {
    const facts = {
      goalId: "algebra.linear-equations",
      title: "Solve linear equations",
      skillTitle: "Algebra basics",
      prerequisites: ["Simplify terms"],
      status: "active" as const,
    };
    const wide = renderGoalVisualization(facts);
    const narrow = renderNarrowGoalVisualization(facts);
    /** The same wide picture with its texts at `size` units instead of the server's. */
    const withText = (image: string, size: number) =>
      image.replace(/font-size="[\d.]+"/g, `font-size="${size}"`);

    /** The layout the page shows in a frame `width` px wide (the box has 8 px padding per side). */
    async function layoutAt(width: number, images: { svg: string; narrowSvg?: string }) {
      page?.close();
      page = loadPage("goal-visualization", { framed: true });
      await handshake(page);
      // jsdom lays nothing out: give the box the frame's width.
      Object.defineProperty(page.document.getElementById("goal"), "clientWidth", { value: width });
      page.fromHost({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-result",
        params: { ...toolResult(images.svg), _meta: { "skillpilot/goalVisualization": images } },
      });
      assert.equal(state(page), "shown");
      return page.document.getElementById("goal")!.getAttribute("data-layout");
    }

    for (const [width, expected] of [
      [320, "narrow"],
      [440, "narrow"], // the wide picture would be 424 px: 12 units at 9.1 px
      [560, "narrow"], // 544 px: 11.7 px
      [576, "wide"], // 560 px, its own width: 12 px
      [800, "wide"],
      [200, "narrow"], // both shrink; the narrow one less
    ] as const)
      it(`a ${width} px frame shows the ${expected} layout of the server's image`, async () => {
        assert.equal(await layoutAt(width, { svg: wide, narrowSvg: narrow }), expected);
      });

    it("follows the text size, not a fixed width: larger text stays wide in narrower frames, smaller text needs more room", async () => {
      // 16 units in 560: 12 px from 420 px of room on.
      assert.equal(await layoutAt(436, { svg: withText(wide, 16), narrowSvg: narrow }), "wide");
      assert.equal(await layoutAt(430, { svg: withText(wide, 16), narrowSvg: narrow }), "narrow");
      // 10 units never reach 12 px at the picture's own 560 px.
      assert.equal(await layoutAt(900, { svg: withText(wide, 10), narrowSvg: narrow }), "narrow");
    });

    it("shows the wide picture when there is no narrow one (an older server)", async () => {
      assert.equal(await layoutAt(320, { svg: wide }), "wide");
    });
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
