import assert from "node:assert/strict";
import { handshake, loadPage, type HostedPage, type RpcMessage } from "./widget-harness.js";

const capability = `cap1.k1.${"A".repeat(43)}`;
const learningSessionId = "sps_AAAAAAAAAAAAAAAAAAAAAAAA";
const cards = [
  { position: 1, front: "7 × 8", back: "56" },
  { position: 2, front: "Capital of France", back: "Paris" },
];
const deckMeta = (deck = cards) => ({
  "skillpilot/memoryPractice": { cards: deck, practiceCapability: capability, learningSessionId },
});
const openResult = (deck = cards) => ({
  content: [{ type: "text", text: `${deck.length} cards` }],
  structuredContent: { cardCount: deck.length },
  _meta: deckMeta(deck),
});
const reviewed = (nextCard: unknown, remaining: number) => ({
  content: [{ type: "text", text: "Saved." }],
  structuredContent: { receipt: { receiptId: "r" }, remaining, nextCard },
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const state = (page: HostedPage) => page.document.getElementById("app")!.getAttribute("data-state");
const text = (page: HostedPage) => page.document.getElementById("app")!.textContent!;
function click(page: HostedPage, label: string): void {
  const button = [...page.document.querySelectorAll("button")].find((b) => b.textContent === label);
  assert.ok(button, `no button ${label} in: ${text(page)}`);
  assert.equal(button.disabled, false, `${label} is disabled`);
  button.click();
}
const toolCalls = (page: HostedPage) => page.sent.filter((m) => m.method === "tools/call");

async function framedWithDeck(deck = cards): Promise<HostedPage> {
  const page = loadPage("memory-practice", { framed: true });
  await handshake(page);
  page.fromHost({
    jsonrpc: "2.0",
    method: "ui/notifications/tool-result",
    params: openResult(deck),
  });
  return page;
}

async function nextCall(page: HostedPage, count: number): Promise<RpcMessage> {
  await page.until(() => toolCalls(page).length >= count, `tools/call #${count}`);
  return toolCalls(page)[count - 1]!;
}

describe("ui/memory-practice page (issue #4, L9)", () => {
  let page: HostedPage | undefined;
  afterEach(() => page?.close());

  it(
    "runs a deck over the MCP Apps bridge: reveal, grade via the app-only tool, " +
      "next card from the server, done (L9)",
    async () => {
      page = await framedWithDeck();
      assert.equal(state(page), "front");
      assert.match(text(page), /Card 1 of 2.*7 × 8/);
      assert.doesNotMatch(text(page), /56/); // the answer stays hidden until revealed
      click(page, "Show answer");
      assert.match(text(page), /56/);
      click(page, "Good");
      const first = await nextCall(page, 1);
      assert.equal(first.params.name, "review_skillpilot_memory_practice_card");
      assert.deepEqual(Object.keys(first.params.arguments).sort(), [
        "clientRequestId",
        "grade",
        "learningSessionId",
        "practiceCapability",
      ]);
      assert.equal(first.params.arguments.grade, "good");
      assert.equal(first.params.arguments.practiceCapability, capability);
      assert.equal(first.params.arguments.learningSessionId, learningSessionId);
      assert.match(first.params.arguments.clientRequestId, UUID);
      assert.equal(state(page), "saving");

      page.fromHost({ jsonrpc: "2.0", id: first.id, result: reviewed(cards[1], 1) });
      await page.until(() => state(page!) === "front", "second card");
      assert.match(text(page), /Card 2 of 2.*Capital of France/);
      click(page, "Show answer");
      click(page, "Again");
      const second = await nextCall(page, 2);
      assert.equal(second.params.arguments.grade, "again");
      assert.notEqual(
        second.params.arguments.clientRequestId,
        first.params.arguments.clientRequestId,
      );
      page.fromHost({ jsonrpc: "2.0", id: second.id, result: reviewed(null, 0) });
      // "Again" brings the card back once more (practice only, nothing is sent), then it ends.
      await page.until(() => state(page!) === "repeat", "the again card once more");
      assert.match(text(page), /Once more: card 2 of 2.*Capital of France/);
      click(page, "Show answer");
      click(page, "Got it");
      await page.until(() => state(page!) === "done", "done");
      assert.match(text(page), /Practice complete: 2 cards reviewed/);
    },
  );

  it("retries a lost grade with the same clientRequestId, so it is saved once (G6)", async () => {
    page = await framedWithDeck();
    click(page, "Show answer");
    click(page, "Hard");
    const lost = await nextCall(page, 1);
    page.fromHost({ jsonrpc: "2.0", id: lost.id, error: { code: -32603, message: "network" } });
    await page.until(() => /Try again/.test(text(page!)), "retry offer");
    assert.match(text(page), /Could not reach the server/);
    click(page, "Try again");
    const retry = await nextCall(page, 2);
    assert.deepEqual(retry.params.arguments, lost.params.arguments);
    page.fromHost({ jsonrpc: "2.0", id: retry.id, result: reviewed(cards[1], 1) });
    await page.until(() => state(page!) === "front", "next card");
  });

  it(
    "shows a visible error when the review result is an error, and for a " + "malformed deck (C14)",
    async () => {
      page = await framedWithDeck();
      click(page, "Show answer");
      click(page, "Easy");
      const call = await nextCall(page, 1);
      page.fromHost({
        jsonrpc: "2.0",
        id: call.id,
        result: { isError: true, content: [{ type: "text", text: "STATE_CONFLICT" }] },
      });
      await page.until(() => state(page!) === "error", "error state");
      assert.match(
        text(page),
        /“Easy” was not saved: your progress changed elsewhere.*Your earlier grades are saved\..*Start a new practice/,
      );
      page.close();

      page = loadPage("memory-practice", { framed: true });
      await handshake(page);
      page.fromHost({
        jsonrpc: "2.0",
        method: "ui/notifications/tool-result",
        params: { content: [], _meta: { "skillpilot/memoryPractice": { cards: "x" } } },
      });
      assert.equal(state(page), "error");
      assert.equal(
        page.document.querySelector("[role=alert]")?.textContent?.includes("could not be opened"),
        true,
      );
    },
  );

  it(
    "works through window.openai: deck from toolResponseMetadata, grades " +
      "through callTool (L9)",
    async () => {
      const calls: Array<[string, Record<string, unknown>]> = [];
      const openai = {
        toolResponseMetadata: deckMeta(),
        callTool: async (name: string, args: Record<string, unknown>) => {
          calls.push([name, args]);
          return reviewed(null, 0);
        },
      };
      page = loadPage("memory-practice", { openai });
      assert.equal(state(page), "front");
      click(page, "Show answer");
      click(page, "Good");
      await page.until(() => state(page!) === "done", "done");
      assert.equal(calls.length, 1);
      assert.equal(calls[0]![0], "review_skillpilot_memory_practice_card");
      assert.equal(calls[0]![1].grade, "good");
      // A later globals update with the same deck must not restart the practice.
      page.window.dispatchEvent(new page.window.Event("openai:set_globals"));
      assert.equal(state(page), "done");
    },
  );

  it("shows card text as text: markup in a card never becomes elements (C15)", async () => {
    const evil = [
      {
        position: 1,
        front: `<img src=x onerror="window.hacked=1">`,
        back: `<script>window.hacked=2</script>`,
      },
    ];
    page = await framedWithDeck(evil);
    click(page, "Show answer");
    assert.equal(page.document.querySelector("#app img, #app script"), null);
    assert.match(text(page), /<img src=x onerror=/);
    assert.equal((page.window as unknown as { hacked?: number }).hacked, undefined);
  });

  it("says so when no cards are due", async () => {
    page = await framedWithDeck([]);
    assert.equal(state(page), "done");
    assert.match(text(page), /No cards are due right now/);
  });
});
