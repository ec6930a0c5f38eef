const LF = 0x0a;
const CR = 0x0d;
const DATA = Buffer.from("data:");

/**
 * An incremental reader of a `text/event-stream` body (lines end in LF or CRLF): it hands each
 * event's data (its `data:` lines joined by LF) to `onEvent` as the event ends, and never holds more
 * than `maxEventBytes` of one event. An event whose data passes the cap is handed on as `tooLarge`
 * once it ends; its bytes are dropped as they come, so the stream keeps flowing whatever its size.
 * Work per chunk is proportional to the chunk, never to what came before.
 */
export class SseScanner {
  private line: Buffer[] = [];
  private lineBytes = 0;
  /** The first bytes of the current line (enough to tell a `data:` line). */
  private head = Buffer.alloc(0);
  /** The current line passed the cap: its bytes are being skipped. */
  private skipping = false;
  private data: Buffer[] = [];
  private dataBytes = 0;
  private over = false;

  constructor(
    private readonly maxEventBytes: number,
    private readonly onEvent: (data: Buffer | "tooLarge") => void,
  ) {}

  /** Scan the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      if (lf < 0) {
        this.part(chunk.subarray(start));
        return;
      }
      this.part(chunk.subarray(start, lf));
      this.endLine();
      start = lf + 1;
    }
  }

  /** The stream ended: an event still open is handed on (a lenient reading of a cut stream). */
  end(): void {
    if (this.lineBytes > 0 || this.skipping) this.endLine();
    this.dispatch();
  }

  private part(bytes: Buffer): void {
    if (bytes.length === 0 || this.skipping) return;
    if (this.head.length < DATA.length)
      this.head = Buffer.concat([this.head, bytes.subarray(0, DATA.length - this.head.length)]);
    this.lineBytes += bytes.length;
    if (this.lineBytes > this.maxEventBytes) {
      if (this.head.equals(DATA)) this.tooLarge();
      this.skipping = true;
      this.line = [];
    } else this.line.push(bytes);
  }

  private endLine(): void {
    const skipped = this.skipping;
    let line = skipped ? Buffer.alloc(0) : Buffer.concat(this.line, this.lineBytes);
    this.line = [];
    this.lineBytes = 0;
    this.head = Buffer.alloc(0);
    this.skipping = false;
    if (skipped) return;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, -1);
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (!line.subarray(0, DATA.length).equals(DATA) || this.over) return;
    let value = line.subarray(DATA.length);
    if (value[0] === 0x20) value = value.subarray(1);
    if (this.data.length > 0) this.dataBytes += 1;
    this.dataBytes += value.length;
    if (this.dataBytes > this.maxEventBytes) this.tooLarge();
    else this.data.push(value);
  }

  private tooLarge(): void {
    this.over = true;
    this.data = [];
  }

  private dispatch(): void {
    const over = this.over;
    const data = this.data;
    this.data = [];
    this.dataBytes = 0;
    this.over = false;
    if (over) this.onEvent("tooLarge");
    else if (data.length > 0) {
      const joined: Buffer[] = [];
      for (const [i, d] of data.entries()) joined.push(...(i > 0 ? [Buffer.from("\n"), d] : [d]));
      this.onEvent(Buffer.concat(joined));
    }
  }
}
