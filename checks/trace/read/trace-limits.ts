/** What `trace check` reads of one trace before it refuses it. */
export interface TraceLimits {
  /** Bytes of a JSON Lines trace (it is streamed line by line; the events are kept). */
  maxTraceBytes: number;
  /** Bytes of a HAR file or Inspector export (one JSON document, parsed whole). */
  maxDocumentBytes: number;
  /** Bytes of one line of a JSON Lines trace. */
  maxLineBytes: number;
  /** Nesting of arrays and objects in one message (every walk over a message stays shallow). */
  maxDepth: number;
}

const MB = 1024 * 1024;

/**
 * Real traces: the 100 000-event benchmark trace is 44 MB, a HAR export of a long session a few
 * MB, a JSON-RPC message nests about ten levels deep.
 */
export const defaultTraceLimits: TraceLimits = {
  maxTraceBytes: 256 * MB,
  maxDocumentBytes: 32 * MB,
  maxLineBytes: 8 * MB,
  maxDepth: 128,
};
