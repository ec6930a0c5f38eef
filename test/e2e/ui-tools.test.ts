import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { CoachDriver, type Out } from "../runtime/support/coach-driver.js";
import { errorCode, eras } from "../runtime/support/mcp-clients.js";
import { repoRoot, useServedClient } from "../runtime/support/runtime-fixture.js";
import { listRetainedUi } from "../../contract-model/ui/ui-store.js";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

for (const era of eras) {
  describe(`UI-bound tools and UI resources over MCP, ${era}`, () => {
    const served = useServedClient(era, { sessionTtlSeconds: 90 * 86400 });
    let d: CoachDriver;
    let activeUi: Record<string, string>;

    before(async () => {
      d = new CoachDriver(served.client, served.fx);
      activeUi = JSON.parse(await readFile(`${repoRoot}/release/line.json`, "utf8")).activeUi;
    });

    it(
      "lists both active UI resources next to every retained one, and reads each as " +
        "text/html;profile=mcp-app with the exact bytes its URI hashes to (L9, " +
        "L10)",
      async () => {
        const { resources } = await served.client.listResources();
        // Every URI ever activated stays listed and readable (L10): the active pages plus the store.
        const everServed = new Set([
          ...Object.values(activeUi),
          ...(await listRetainedUi(repoRoot)),
        ]);
        assert.deepEqual(resources.map((r) => r.uri).sort(), [...everServed].sort());
        for (const [name, uri] of Object.entries(activeUi)) {
          const { contents } = await served.client.readResource(uri);
          assert.equal(contents.length, 1);
          const [page] = contents;
          assert.equal(page.uri, uri);
          assert.equal(page.mimeType, "text/html;profile=mcp-app");
          assert.equal(`sha256-${sha256(page.text!)}`, /sha256-[0-9a-f]{64}/.exec(uri)![0], name);
          assert.equal(page.text, await readFile(`${repoRoot}/ui/${name}/index.html`, "utf8"));
          const ui = (page._meta as Out).ui;
          assert.deepEqual(ui.csp, {
            connectDomains: [],
            resourceDomains: [],
            frameDomains: [],
            baseUriDomains: [],
          });
          assert.equal(ui.domain, served.fx.services.identity.widgetOrigin);
        }
      },
    );

    it("refuses to read a UI URI whose bytes it does not have (L10)", async () => {
      const unknown = `ui://skillpilot/coach/1/sha256-${"0".repeat(64)}/index.html`;
      await assert.rejects(served.client.readResource(unknown));
    });

    it(
      "renders only the authorized (goalId, stateVersion): a narrow receipt for " +
        "the model, the SVG in _meta (L9, C2, C9)",
      async () => {
        const { sid, ctx } = await d.sessionWithMastered(`render-${era}`, 0);
        assert.equal(ctx.currentStep.goalVisualization, true);
        const args = {
          learningSessionId: sid,
          goalId: ctx.currentStep.goalId,
          expectedStateVersion: ctx.stateVersion,
        };
        const result = await d.call("render_skillpilot_goal_visualization", args);
        assert.equal(result.isError, undefined, JSON.stringify(result));
        assert.deepEqual(result.structuredContent, {
          rendered: true,
          goalId: ctx.currentStep.goalId,
          stateVersion: ctx.stateVersion,
        });
        const svg = (result._meta as Out)["skillpilot/goalVisualization"].svg as string;
        assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.ok(svg.includes(ctx.currentStep.title));
        assert.ok(
          !result.content.some((c) => c.text?.includes("<svg")),
          "the image is not in content",
        );

        assert.equal(
          errorCode(
            await d.call("render_skillpilot_goal_visualization", {
              ...args,
              expectedStateVersion: ctx.stateVersion - 1,
            }),
          ),
          "STATE_CONFLICT",
        );
        assert.equal(
          errorCode(
            await d.call("render_skillpilot_goal_visualization", {
              ...args,
              goalId: "git-basics.undo",
            }),
          ),
          "NOT_ELIGIBLE",
        );
        // A goal without a visualization has none to render.
        const noImage = await d.sessionWithMastered(`render-none-${era}`, 3);
        assert.equal(noImage.ctx.currentStep.goalId, "git-basics.history");
        assert.equal(noImage.ctx.currentStep.goalVisualization, false);
        const refused = await d.call("render_skillpilot_goal_visualization", {
          learningSessionId: noImage.sid,
          goalId: "git-basics.history",
          expectedStateVersion: noImage.ctx.stateVersion,
        });
        assert.equal(errorCode(refused), "NOT_ELIGIBLE");
      },
    );

    it(
      "starts memory practice with the deck and practiceCapability in _meta and " +
        "only the card count in structuredContent (L9, C9)",
      async () => {
        const { sid, ctx } = await d.sessionWithMastered(`deck-${era}`, 2);
        const rows = await d.rows(sid);
        const result = await d.call("start_skillpilot_memory_practice", { learningSessionId: sid });
        assert.deepEqual(result.structuredContent, { cardCount: 2 });
        const deck = (result._meta as Out)["skillpilot/memoryPractice"];
        assert.equal(deck.learningSessionId, sid);
        assert.match(deck.practiceCapability, /^cap1\./);
        assert.deepEqual(
          deck.cards.map((c: Out) => c.position),
          [1, 2],
        );
        assert.equal(
          deck.cards[0].front,
          "Which command turns the current folder into a Git repository?",
        );
        assert.equal(deck.cards[0].back, "git init");
        assert.ok(
          !JSON.stringify(result.content).includes("git init"),
          "card text stays out of content",
        );
        assert.deepEqual(await d.rows(sid), rows, "starting practice is a read");
        assert.ok(ctx.allowedActions.includes("start_skillpilot_memory_practice"));
      },
    );

    it(
      "records practice grades idempotently through the write pipeline and " +
        "walks the deck to its end (G6, C4)",
      async () => {
        const { sid } = await d.sessionWithMastered(`grade-${era}`, 2);
        const deck = (
          (await d.call("start_skillpilot_memory_practice", { learningSessionId: sid }))
            ._meta as Out
        )["skillpilot/memoryPractice"];
        const review = (grade: string, clientRequestId = randomUUID()) =>
          d.call("review_skillpilot_memory_practice_card", {
            learningSessionId: sid,
            practiceCapability: deck.practiceCapability,
            clientRequestId,
            grade,
          });
        const key = randomUUID();
        const first = await review("easy", key);
        assert.equal(first.isError, undefined, JSON.stringify(first));
        const out = first.structuredContent as Out;
        assert.equal(out.remaining, 1);
        assert.deepEqual(out.nextCard, deck.cards[1]);
        assert.equal(out.receipt.operation, "review_skillpilot_memory_practice_card");
        const again = await review("easy", key);
        assert.equal(
          JSON.stringify(again),
          JSON.stringify(first),
          "a retried grade is answered from the stored result",
        );
        assert.equal(errorCode(await review("again", key)), "IDEMPOTENCY_KEY_REUSED");

        const last = (await review("again")).structuredContent as Out;
        assert.deepEqual([last.remaining, last.nextCard], [0, null]);
        assert.equal(errorCode(await review("good")), "NOT_ELIGIBLE", "the deck is finished");

        const rows = await d.rows(sid);
        assert.equal(
          rows.receipts.filter((r: Out) => r.operation === "review_skillpilot_memory_practice_card")
            .length,
          2,
        );
        const schedules = JSON.parse(rows.state.state_json).recallSchedules;
        assert.deepEqual(
          [
            schedules["git-basics.repository"].repetitions,
            schedules["git-basics.repository"].easeFactor,
          ],
          [1, 2.65],
        );
        assert.deepEqual(
          [schedules["git-basics.staging"].lapses, schedules["git-basics.staging"].intervalDays],
          [1, 1],
        );
      },
    );

    it(
      "refuses a practice capability from another session or a deck replaced by " +
        "a later write (C11)",
      async () => {
        const a = await d.sessionWithMastered(`deck-a-${era}`, 1);
        const b = await d.sessionWithMastered(`deck-b-${era}`, 1);
        const deckOf = async (sid: string) =>
          (
            (await d.call("start_skillpilot_memory_practice", { learningSessionId: sid }))
              ._meta as Out
          )["skillpilot/memoryPractice"];
        const deckB = await deckOf(b.sid);
        const foreign = await d.call("review_skillpilot_memory_practice_card", {
          learningSessionId: a.sid,
          practiceCapability: deckB.practiceCapability,
          clientRequestId: randomUUID(),
          grade: "good",
        });
        assert.equal(errorCode(foreign), "CAPABILITY_INVALID");
        const deckA = await deckOf(a.sid);
        await d.master(a.ctx); // any write moves the state on: the unstarted deck is stale
        const stale = await d.call("review_skillpilot_memory_practice_card", {
          learningSessionId: a.sid,
          practiceCapability: deckA.practiceCapability,
          clientRequestId: randomUUID(),
          grade: "good",
        });
        assert.equal(errorCode(stale), "CAPABILITY_STALE");
      },
    );
  });
}
