import http from "node:http";
import type { AddressInfo } from "node:net";
import type { WireObject } from "./wire.js";

/**
 * A loopback OTLP/HTTP traces receiver for tests: it keeps every export it gets, binary Protobuf
 * (decoded here, independently of the SDK's serializer) or JSON, in the OTLP/JSON shape, and the
 * content type each arrived with.
 */
export async function otlpReceiver() {
  const bodies: WireObject[] = [];
  const raw: Buffer[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      if (req.url === "/v1/traces") {
        contentTypes.push(type);
        const body = Buffer.concat(chunks);
        raw.push(body);
        bodies.push(
          type.startsWith("application/x-protobuf")
            ? decodeTraceExport(body)
            : (JSON.parse(body.toString()) as WireObject),
        );
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies,
    /** Each export's body as it arrived. */
    raw,
    contentTypes,
    /** Every span of every export, in arrival order. */
    spans: () =>
      bodies.flatMap((b) =>
        (b.resourceSpans as WireObject[]).flatMap((r) =>
          (r.scopeSpans as WireObject[]).flatMap((s) => s.spans as WireObject[]),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One protobuf field: its number and its value (a varint, a fixed-width number or bytes). */
type Field = { no: number; varint?: bigint; bytes?: Buffer; fixed?: Buffer };

/** The fields of one protobuf message, in order (the wire format, proto3). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = () => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buf[at++];
      if (byte === undefined) throw new Error("protobuf: truncated varint");
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, varint: varint() });
    else if (wire === 1 || wire === 5) {
      const width = wire === 1 ? 8 : 4;
      out.push({ no, fixed: buf.subarray(at, at + width) });
      at += width;
    } else if (wire === 2) {
      const length = Number(varint());
      out.push({ no, bytes: buf.subarray(at, at + length) });
      at += length;
    } else throw new Error(`protobuf: wire type ${wire} not expected in OTLP traces`);
  }
  return out;
}

const text = (f: Field | undefined) => f?.bytes?.toString("utf8");
const hex = (f: Field | undefined) => f?.bytes?.toString("hex") ?? "";
const first = (fs: Field[], no: number) => fs.find((f) => f.no === no);
const all = (fs: Field[], no: number) => fs.filter((f) => f.no === no && f.bytes);

/** An OTLP AnyValue as its OTLP/JSON object (`{stringValue}`, `{intValue}`, …). */
function anyValue(buf: Buffer): WireObject {
  const [f] = fields(buf);
  if (!f) return {};
  if (f.no === 1) return { stringValue: text(f) };
  if (f.no === 2) return { boolValue: f.varint === 1n };
  if (f.no === 3) return { intValue: String(BigInt.asIntN(64, f.varint ?? 0n)) };
  if (f.no === 4) return { doubleValue: f.fixed!.readDoubleLE(0) };
  return { other: f.no };
}

const keyValues = (fs: Field[], no: number) =>
  all(fs, no).map((kv) => {
    const inner = fields(kv.bytes!);
    return {
      key: text(first(inner, 1)),
      value: anyValue(first(inner, 2)?.bytes ?? Buffer.alloc(0)),
    };
  });

function span(buf: Buffer): WireObject {
  const fs = fields(buf);
  const status = first(fs, 15)?.bytes;
  const statusFields = status ? fields(status) : [];
  return {
    traceId: hex(first(fs, 1)),
    spanId: hex(first(fs, 2)),
    ...(first(fs, 3) && { traceState: text(first(fs, 3)) }),
    parentSpanId: hex(first(fs, 4)),
    name: text(first(fs, 5)),
    kind: Number(first(fs, 6)?.varint ?? 0n),
    startTimeUnixNano: String(first(fs, 7)?.fixed?.readBigUInt64LE(0) ?? 0n),
    endTimeUnixNano: String(first(fs, 8)?.fixed?.readBigUInt64LE(0) ?? 0n),
    attributes: keyValues(fs, 9),
    status: {
      ...(first(statusFields, 2) && { message: text(first(statusFields, 2)) }),
      ...(first(statusFields, 3) && { code: Number(first(statusFields, 3)!.varint) }),
    },
  };
}

/** A binary ExportTraceServiceRequest in the OTLP/JSON shape the tests read. */
export function decodeTraceExport(buf: Buffer): WireObject {
  return {
    resourceSpans: all(fields(buf), 1).map((rs) => {
      const r = fields(rs.bytes!);
      const resource = first(r, 1)?.bytes;
      return {
        resource: { attributes: resource ? keyValues(fields(resource), 1) : [] },
        scopeSpans: all(r, 2).map((ss) => {
          const s = fields(ss.bytes!);
          const scope = first(s, 1)?.bytes;
          const scopeFields = scope ? fields(scope) : [];
          return {
            scope: { name: text(first(scopeFields, 1)), version: text(first(scopeFields, 2)) },
            spans: all(s, 2).map((x) => span(x.bytes!)),
          };
        }),
      };
    }),
  };
}
