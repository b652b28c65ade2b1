/**
 * The bounds of one attempt that ky does not set: ky's `timeout` ends when the response headers arrive, so a server
 * that sends headers and then stalls, or sends a body without end, would hold the call (and grow its memory)
 * forever. This wraps the client's `fetch` so that each attempt's body is read within what is left of
 * `timeoutMs` and is never larger than `maxResponseBytes`; past either, the body errors with the SDK's typed error
 * and the connection is released. Browser-safe (streams and timers only).
 * @module
 */

/** What {@link boundedFetch} needs. */
export interface AttemptBounds {
  /** Milliseconds for the whole attempt: the request, the headers and the body. */
  timeoutMs: number;
  /** The most response-body bytes an attempt may read. */
  maxResponseBytes: number;
  /** The error a body read too late fails with. */
  timeoutError(): Error;
  /** The error a body too large fails with. */
  tooLargeError(): Error;
}

type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** `fetch` with every attempt bounded in time (body included) and in response size. */
export function boundedFetch(fetch: Fetch, bounds: AttemptBounds): Fetch {
  return async (input, init) => {
    const startedAt = Date.now();
    const response = await fetch(input, init);
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > bounds.maxResponseBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw bounds.tooLargeError();
    }
    if (!response.body) return response;
    return new Response(limitBody(response.body, bounds.timeoutMs - (Date.now() - startedAt), bounds), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The body, erroring once `remainingMs` pass or `maxResponseBytes` are exceeded (and cancelling the source). */
function limitBody(body: ReadableStream<Uint8Array>, remainingMs: number, bounds: AttemptBounds): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  let failure: Error | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let out: ReadableStreamDefaultController<Uint8Array>;
  const stop = (error: Error) => {
    if (failure) return;
    failure = error;
    clearTimeout(timer);
    void reader.cancel(error).catch(() => undefined);
    try {
      out.error(error);
    } catch {
      // Already closed or errored.
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
      timer = setTimeout(() => stop(bounds.timeoutError()), Math.max(0, remainingMs));
      // In Node, a pending body timer must not keep the process alive on its own.
      (timer as { unref?: () => void }).unref?.();
    },
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        clearTimeout(timer);
        if (!failure) controller.error(error);
        return;
      }
      if (failure) return;
      if (chunk.done) {
        clearTimeout(timer);
        controller.close();
        return;
      }
      bytes += chunk.value.byteLength;
      if (bytes > bounds.maxResponseBytes) return stop(bounds.tooLargeError());
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
}
