import assert from "node:assert/strict";
import { SseScanner } from "../../../../checks/trace/record/sse-scanner.js";

/** The events `chunks` yield, data as text, with a cap of `cap` bytes per event. */
function scan(chunks: string[], cap = 1024): string[] {
  const events: string[] = [];
  const scanner = new SseScanner(cap, (d) =>
    events.push(d === "tooLarge" ? "<tooLarge>" : d.toString()),
  );
  for (const c of chunks) scanner.push(Buffer.from(c));
  scanner.end();
  return events;
}

describe("checks/trace/record: SSE events are read incrementally, each within the cap", () => {
  it("joins data lines, ignores other fields and comments, reads LF and CRLF, across any chunking", () => {
    const stream =
      ': ping\n\nevent: message\nid: 1\ndata: {"a":\ndata: 1}\n\r\ndata:{"b":2}\r\n\r\n';
    const expected = ['{"a":\n1}', '{"b":2}'];
    assert.deepEqual(scan([stream]), expected);
    // Byte by byte, and at every split point in two.
    assert.deepEqual(scan([...stream]), expected);
    for (let i = 1; i < stream.length; i++)
      assert.deepEqual(scan([stream.slice(0, i), stream.slice(i)]), expected, `split at ${i}`);
  });

  it("hands on an event over the cap as tooLarge once, and the events after it whole", () => {
    const big = "x".repeat(5000);
    assert.deepEqual(scan([`data: ${big}\n\ndata: {"after":1}\n\n`], 1024), [
      "<tooLarge>",
      '{"after":1}',
    ]);
    // Over the cap only together: many lines of one event.
    const lines = Array.from({ length: 20 }, () => `data: ${"y".repeat(100)}\n`).join("");
    assert.deepEqual(scan([`${lines}\ndata: 2\n\n`], 1024), ["<tooLarge>", "2"]);
    // A long comment line is skipped, not an oversized event.
    assert.deepEqual(scan([`: ${big}\ndata: 3\n\n`], 1024), ["3"]);
  });

  it("hands on the open event of a cut stream at its end", () => {
    assert.deepEqual(scan(['data: {"cut":true}']), ['{"cut":true}']);
  });
});
