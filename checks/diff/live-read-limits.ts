/** How much a command reads from a live server before it stops: bytes, time and pages. */
export interface LiveReadLimits {
  /** Bytes of all response bodies of one session together. */
  maxBodyBytes: number;
  /** Wall-clock milliseconds for the whole session (connect, every page, every read). */
  timeoutMs: number;
  /** `tools/list` pages (a server that keeps sending a `nextCursor` is stopped here). */
  maxPages: number;
}

/**
 * Room for listings far larger than real servers send (a 100-tool list is a few hundred KB, a
 * 3000-tool one about 10 MB), while a hostile server costs at most these.
 */
export const defaultLiveReadLimits: LiveReadLimits = {
  maxBodyBytes: 64 * 1024 * 1024,
  timeoutMs: 60_000,
  maxPages: 100,
};

/** A live read stopped by one of its caps; the message names the cap and its flag. */
export class LiveReadCapError extends Error {
  override name = "LiveReadCapError";
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` for one live session that counts every response body's bytes against
 * `limits.maxBodyBytes` as they stream in (the body is cancelled the moment the cap is passed, so a
 * never-ending answer costs at most the cap) and aborts every request once `deadline` fires. The
 * first cap it hit is kept in `tripped`, since a client library may wrap the error it sees.
 */
export function boundedFetch(
  limits: LiveReadLimits,
  deadline: AbortSignal,
): { fetch: Fetch; tripped: () => LiveReadCapError | undefined } {
  let seen = 0;
  let tripped: LiveReadCapError | undefined;
  const fetchBounded: Fetch = async (url, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const response = await fetch(url, { ...init, signal });
    if (!response.body) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen <= limits.maxBodyBytes) return controller.enqueue(chunk);
          tripped ??= new LiveReadCapError(
            `the server sent more than ${Math.round(limits.maxBodyBytes / 1024 / 1024)} MB ` +
              "(raise the cap with --max-body-mb)",
          );
          controller.error(tripped);
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: fetchBounded, tripped: () => tripped };
}
