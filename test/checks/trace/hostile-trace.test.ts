import assert from "node:assert/strict";
import { copyFile, mkdir, mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCliMeasured } from "../../support/peak-rss.js";
import { treeDigest } from "../../release/support/tree-digest.js";
import { repoRoot } from "../../support/temp-project.js";

const MB = 1024 * 1024;
const t = (s: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, 0) + s * 1000).toISOString();
const read = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "get_skillpilot_learning_context", arguments: {} },
});
const line = (event: unknown) => JSON.stringify(event);
const learner = (s: number) => line({ at: t(s), learnerMessage: true });

describe("checks/trace: hostile traces are TRACE_INPUT_INVALID naming file and line, within the caps (issue #32 item 1c)", function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "sp-hostile-trace-"));
    // The contract the traces are judged against: the project's own (copied, so -C is the temp dir).
    await mkdir(path.join(dir, "generated"));
    await copyFile(
      path.join(repoRoot, "generated/contract.snapshot.json"),
      path.join(dir, "generated/contract.snapshot.json"),
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** `trace check FILE --format json` on `bytes`; asserts its exit, no stack and no write. */
  async function check(name: string, bytes: Buffer | string, code: number, ...extra: string[]) {
    await writeFile(path.join(dir, name), bytes);
    const before = await treeDigest(dir);
    const run = await runCliMeasured(
      ["-C", dir, "trace", "check", name, "--format", "json", ...extra],
      {
        env: { SKILLPILOT_NO_PROGRESS: "1" },
      },
    );
    assert.equal(run.code, code, `${name}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /\n\s+at |Maximum call stack|Invalid string length/, name);
    assert.equal(await treeDigest(dir), before, `${name}: trace check writes nothing`);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { ruleId: string; message: string; location: { file: string; line?: number } }[];
    };
    return { ...run, diagnostics: report.diagnostics };
  }

  it("refuses a message nested 20 000 deep at its line, without a stack", async () => {
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const event = line({ at: t(1), from: "client", message: read(1) }).replace(
      '"arguments":{}',
      `"arguments":{"x":${deep}}`,
    );
    const run = await check("deep.jsonl", `${learner(0)}\n${event}\n`, 2);
    assert.deepEqual(
      run.diagnostics.map((d) => [d.ruleId, d.location.file, d.location.line]),
      [["TRACE_INPUT_INVALID", "deep.jsonl", 2]],
    );
    assert.match(
      run.diagnostics[0].message,
      /line 2: the message nests deeper than 128 levels \(raise the cap with --max-depth\)/,
    );
    const lowered = await check("deep.jsonl", `${learner(0)}\n${event}\n`, 2, "--max-depth", "4");
    assert.match(lowered.diagnostics[0].message, /nests deeper than 4 levels/);
  });

  it("reports invalid UTF-8 as such, at its line, in JSON Lines and in a document", async () => {
    const bad = Buffer.concat([
      Buffer.from(`${learner(0)}\n${line({ at: t(1), from: "client", message: read(1) })}\n`),
      Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x0a]),
    ]);
    const run = await check("bad.jsonl", bad, 2);
    assert.deepEqual(
      run.diagnostics.map((d) => [d.location.file, d.location.line, d.message]),
      [["bad.jsonl", 3, "line 3 is not valid UTF-8: a trace is UTF-8 text"]],
    );
    const doc = Buffer.concat([
      Buffer.from('[\n{"timestamp":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n]\n'),
    ]);
    const inDoc = await check("bad.json", doc, 2);
    assert.deepEqual(
      inDoc.diagnostics.map((d) => [d.location.line, d.message]),
      [[2, "line 2 is not valid UTF-8: a trace is UTF-8 text"]],
    );
  });

  it("refuses a trace beyond the size cap before reading it (a sparse 600 MB file)", async () => {
    const file = await open(path.join(dir, "huge.jsonl"), "w");
    await file.truncate(600 * MB);
    await file.close();
    const run = await runCliMeasured([
      "-C",
      dir,
      "trace",
      "check",
      "huge.jsonl",
      "--format",
      "json",
    ]);
    assert.equal(run.code, 2, run.stderr);
    const [problem] = (
      JSON.parse(run.stdout) as { diagnostics: { ruleId: string; message: string }[] }
    ).diagnostics;
    assert.equal(problem.ruleId, "TRACE_INPUT_INVALID");
    assert.match(
      problem.message,
      /huge\.jsonl is larger than 256 MB, the cap for a trace; it was not read \(raise it with --max-trace-mb\)/,
    );
    assert.ok(run.peakMb < 150, `peak RSS ${run.peakMb} MB`);
    await rm(path.join(dir, "huge.jsonl"));
  });

  it("refuses an overlong line at its number and goes on reading the next ones", async () => {
    const long = line({
      at: t(1),
      from: "client",
      message: { ...read(1), params: { name: "x", arguments: { pad: "a".repeat(3 * MB) } } },
    });
    const run = await check(
      "long.jsonl",
      `${learner(0)}\n${long}\n{"not":"an event"}\n`,
      2,
      "--max-line-mb",
      "1",
    );
    assert.deepEqual(
      run.diagnostics.map((d) => [d.location.line, d.message]),
      [
        [2, "line 2 is longer than 1 MB (raise the cap with --max-line-mb)"],
        [
          3,
          'line 3 is not a trace event: expected {"at","from","message"} or {"at","learnerMessage":true}',
        ],
      ],
    );
  });

  it("an Inspector export of 130 000 calls: refused beyond the document cap, judged under a raised one", async () => {
    const entries = Array.from({ length: 130_000 }, (_, i) => ({
      timestamp: t(i),
      direction: "request",
      origin: "client",
      message: read(i),
      response: { jsonrpc: "2.0", id: i, result: { content: [], structuredContent: {} } },
      duration: 5,
    }));
    const text = JSON.stringify(entries);
    assert.ok(text.length > 32 * MB);
    const refused = await check("inspector-protocol-many.json", text, 2);
    assert.match(
      refused.diagnostics[0].message,
      /is larger than 32 MB, the cap for a HAR file or Inspector export; it was not read \(raise it with --max-document-mb\)/,
    );
    assert.ok(refused.peakMb < 150, `peak RSS ${refused.peakMb} MB`);
    const judged = await check("inspector-protocol-many.json", text, 1, "--max-document-mb", "64");
    assert.ok(judged.diagnostics.length > 100_000, `${judged.diagnostics.length} findings`);
    assert.ok(judged.diagnostics.every((d) => d.ruleId.startsWith("TRACE_")));
    assert.ok(judged.peakMb < 490, `peak RSS ${judged.peakMb} MB`);
  });

  it("a HAR file whose message nests deeper than the cap is refused at its entry", async () => {
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const har = `{"log":{"entries":[{"startedDateTime":"${t(0)}","time":1,"request":{"method":"POST","postData":{"text":${JSON.stringify(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":${deep}}}`)}}}}]}}`;
    const run = await check("deep.har", har, 2);
    assert.deepEqual(
      run.diagnostics.map((d) => [d.ruleId, d.location.file]),
      [["TRACE_INPUT_INVALID", "deep.har"]],
    );
    assert.match(
      run.diagnostics[0].message,
      /\/log\/entries\/0\/request: the message nests deeper than 128 levels/,
    );
  });
});
