import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../../support/run-cli.js";

const sid = "redacted:session:0011223344556677";
const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, s)).toISOString();
const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: { learningSessionId: sid, ...args } },
});
const ok = (id: number, structuredContent: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  result: { content: [{ type: "text", text: "redacted:prose:3-words" }], structuredContent },
});
const context = { learningSessionId: sid, stateVersion: 3 };

/** One turn that keeps the contract: a learner message, one context read, one write. */
const goodTurn = [
  { at: t(0), learnerMessage: true },
  { at: t(1), from: "client", message: call(1, "get_skillpilot_learning_context", {}) },
  { at: t(2), from: "server", message: ok(1, context) },
  {
    at: t(3),
    from: "client",
    message: call(2, "complete_skillpilot_goal", {
      expectedStateVersion: 3,
      clientRequestId: "6b2d1c1e-1111-4222-8333-444455556666",
      decision: "achieved",
    }),
  },
  { at: t(4), from: "server", message: ok(2, { successor: context }) },
];
const jsonl = (events: unknown[]) => `${events.map((e) => JSON.stringify(e)).join("\n")}\n`;

describe("skillpilot trace check: formats and bad input (G10, G9)", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "skillpilot-trace-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const write = async (name: string, text: string) => {
    const file = path.join(dir, name);
    await writeFile(file, text);
    return file;
  };

  it("passes a turn that keeps the contract in JSON Lines, HAR and an Inspector export", async () => {
    const har = {
      log: {
        version: "1.2",
        entries: [
          { startedDateTime: t(0), request: { method: "GET", url: "http://x/.well-known" } },
          ...[1, 3].map((i) => ({
            startedDateTime: goodTurn[i].at,
            time: 500,
            request: {
              method: "POST",
              postData: { mimeType: "application/json", text: JSON.stringify(goodTurn[i].message) },
            },
            response: {
              content: {
                mimeType: "text/event-stream",
                text: `event: message\ndata: ${JSON.stringify(goodTurn[i + 1].message)}\n\n`,
              },
            },
          })),
        ],
      },
    };
    const inspector = [1, 3].map((i) => ({
      id: `entry-${i}`,
      timestamp: goodTurn[i].at,
      direction: "request",
      origin: "client",
      message: goodTurn[i].message,
      response: goodTurn[i + 1].message,
      duration: 40,
    }));
    for (const [name, text] of [
      ["good.jsonl", jsonl(goodTurn)],
      ["good.har", JSON.stringify(har, null, 2)],
      ["inspector-protocol.json", JSON.stringify(inspector, null, 2)],
    ] as const) {
      const run = await runCli(["trace", "check", await write(name, text)]);
      assert.equal(run.code, 0, `${name}: ${run.stdout}`);
      assert.match(run.stdout, /0 error\(s\)/, name);
    }
  });

  it("says turns were inferred when a trace marks no learner messages, as a note (exit 0)", async () => {
    const file = await write("unmarked.jsonl", jsonl(goodTurn.slice(1)));
    const run = await runCli(["trace", "check", file, "--format", "json"]);
    assert.equal(run.code, 0, run.stdout);
    const { diagnostics } = JSON.parse(run.stdout) as {
      diagnostics: { ruleId: string; severity: string }[];
    };
    assert.deepEqual(
      diagnostics.map((d) => [d.ruleId, d.severity]),
      [["TRACE_TURNS_INFERRED", "note"]],
    );
    assert.match(run.stderr, /1 turn\(s\) \(inferred from pauses\)/);
  });

  it("reads a recorder's unrecorded events: an answer to an unrecorded request and an unrecorded answer are no errors, one note says so", async () => {
    const unrecorded = (from: string, reason: string, answers?: number[]) => ({
      at: t(2),
      from,
      unrecorded: { reason, ...(answers && { answers }) },
    });
    const file = await write(
      "unrecorded.jsonl",
      jsonl([
        goodTurn[0],
        goodTurn[1],
        goodTurn[2],
        goodTurn[3],
        // The write's answer was too large to record; it answered the write all the same.
        unrecorded("server", "tooLarge", [2]),
        // A request too deep to record, and its (recorded) answer.
        unrecorded("client", "tooDeep"),
        { at: t(5), from: "server", message: { jsonrpc: "2.0", id: 99, result: {} } },
      ]),
    );
    const run = await runCli(["trace", "check", file, "--format", "json"]);
    assert.equal(run.code, 0, run.stdout);
    const { diagnostics } = JSON.parse(run.stdout) as {
      diagnostics: { ruleId: string; severity: string; message: string }[];
    };
    assert.deepEqual(
      diagnostics.map((d) => [d.ruleId, d.severity]),
      [["TRACE_UNRECORDED", "note"]],
    );
    assert.match(
      diagnostics[0].message,
      /marks 2 message\(s\) forwarded but not recorded \(the first at line 5: larger than the recorder's cap\)/,
    );
    // An unrecorded event of unknown shape is no event.
    const odd = await write("odd.jsonl", jsonl([goodTurn[0], unrecorded("server", "lost")]));
    const refused = await runCli(["trace", "check", odd]);
    assert.equal(refused.code, 2);
    assert.match(refused.stdout, /line 2 is not a trace event/);
  });

  const bad: [string, string, RegExp][] = [
    ["an empty file", "", /holds no events/],
    ["a file that is not JSON Lines", "hello\n", /line 1 is not JSON/],
    [
      "an event of unknown shape",
      jsonl([{ at: t(0), kind: "call" }]),
      /line 1 is not a trace event/,
    ],
    [
      "a message that is not JSON-RPC",
      jsonl([{ at: t(0), from: "client", message: { method: "x" } }]),
      /line 1: the message is not a JSON-RPC 2\.0 message/,
    ],
    [
      "a response without its request",
      jsonl([goodTurn[0], goodTurn[2]]),
      /line 2: a response to request id 1, which the trace never sent/,
    ],
    [
      "a trace of another server's tools",
      jsonl([goodTurn[0], { at: t(1), from: "client", message: call(1, "get_weather", {}) }]),
      /line 2: tool get_weather is not a tool of generated\/contract\.snapshot\.json/,
    ],
  ];
  for (const [what, text, message] of bad)
    it(`answers ${what} with a diagnostic and exit 2, in every format`, async () => {
      const file = await write(`bad-${what.replace(/\W+/g, "-")}.jsonl`, text);
      const run = await runCli(["trace", "check", file]);
      assert.equal(run.code, 2, run.stdout + run.stderr);
      assert.match(run.stdout, /TRACE_INPUT_INVALID/);
      assert.match(run.stdout, message);
      assert.doesNotMatch(run.stdout + run.stderr, /\n\s+at /, "no stack");
      for (const format of ["json", "sarif", "github", "markdown"]) {
        const machine = await runCli(["trace", "check", file, "--format", format]);
        assert.equal(machine.code, 2, format);
        assert.match(machine.stdout, /TRACE_INPUT_INVALID/, format);
      }
    });

  it("names the turn, the event line and the rule of a finding in every format (G10)", async () => {
    const polled = [
      ...goodTurn.slice(0, 3),
      { at: t(3), from: "client", message: call(3, "get_skillpilot_learning_context", {}) },
      { at: t(4), from: "server", message: ok(3, context) },
    ];
    const file = await write("polled.jsonl", jsonl(polled));
    const text = await runCli(["trace", "check", file]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /polled\.jsonl:4:1 {2}error {2}TRACE_CONTEXT_POLLING {2}turn 1: /);
    const json = await runCli(["trace", "check", file, "--format", "json"]);
    const [d] = (JSON.parse(json.stdout) as { diagnostics: Record<string, never>[] }).diagnostics;
    assert.deepEqual(
      [d.ruleId, (d.location as { line: number }).line, (d.data as { turn: number }).turn],
      ["TRACE_CONTEXT_POLLING", 4, 1],
    );
    for (const [format, shape] of [
      ["sarif", /"ruleId": "TRACE_CONTEXT_POLLING"[\s\S]*"startLine": 4/],
      ["github", /^::error file=.*polled\.jsonl,line=4.*TRACE_CONTEXT_POLLING.*turn 1/m],
      ["markdown", /TRACE_CONTEXT_POLLING[\s\S]*turn 1/],
    ] as const) {
      const run = await runCli(["trace", "check", file, "--format", format]);
      assert.equal(run.code, 1, format);
      assert.match(run.stdout, shape, format);
    }
  });
});
