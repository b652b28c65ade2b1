/**
 * The bounds of one call's attempts that ky does not set: ky's `timeout` ends when the response headers arrive, so
 * a server that sends headers and then stalls, or sends a body without end, would hold the call (and grow its
 * memory) forever. {@link boundCall} wraps the client's `fetch` so that each attempt's body is read within what is
 * left of `timeoutMs` and is never larger than `maxResponseBytes`; past either, the body errors with the SDK's typed
 * error and the connection is released. Browser-safe (streams, timers and abort signals only).
 *
 * Two ways, by what the response declares:
 * - a `Content-Length` within the limit that is the body's own length (no content encoding, and not a cross-origin
 *   response in a browser, whose encoding is hidden; what the service and the mock send): passed on as it is,
 *   and a timer aborts the call's signal, which every request of the call carries, when the body is late; fetch
 *   then errors the body with the timeout. Nothing stands between fetch and the reader: no second stream, no
 *   second `Response`, which were a tenth of the SDK's own cost per call on loopback.
 * - any other (chunked, or encoded): the body is read through a stream that counts its decoded bytes and has its own
 *   timer.
 * @module
 */

/** What {@link boundCall} needs. */
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

/** One call's transport: its bounded `fetch`, the signal its requests carry, and its end. */
export interface BoundedCall {
  /** `fetch` with every attempt bounded in time (body included) and in response size. */
  fetch: Fetch;
  /** The signal every request of the call must carry: the caller's, and the body timer's. */
  signal: AbortSignal;
  /**
   * The current attempt is over (its body read, or the call ended): its body timer stops. The caller must say so
   * before any wait for a retry, or the timer would abort the call during the wait.
   */
  end(): void;
}

/** Bounds every attempt of one call; `callerSignal` is the caller's own (it still aborts the call). */
export function boundCall(fetch: Fetch, bounds: AttemptBounds, callerSignal?: AbortSignal): BoundedCall {
  const deadline = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const end = () => clearTimeout(timer);
  const boundedFetch: Fetch = async (input, init) => {
    end(); // a retry: the previous attempt's body is no longer read
    const startedAt = Date.now();
    const response = await fetch(input, init);
    const header = response.headers.get('content-length');
    const declared = header === null ? Number.NaN : Number(header);
    if (declared > bounds.maxResponseBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw bounds.tooLargeError();
    }
    if (!response.body) return response;
    const remainingMs = Math.max(0, bounds.timeoutMs - (Date.now() - startedAt));
    if (Number.isSafeInteger(declared) && lengthIsTheBody(response)) {
      timer = setTimeout(() => deadline.abort(bounds.timeoutError()), remainingMs);
      // In Node, a pending body timer must not keep the process alive on its own.
      (timer as { unref?: () => void }).unref?.();
      return response;
    }
    return new Response(limitBody(response.body, remainingMs, bounds), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
  return { fetch: boundedFetch, signal, end };
}

/**
 * Whether `Content-Length` is the length of the body as read: not when the body is encoded (fetch decodes gzip,
 * deflate, br and zstd, and the length is of the encoded bytes: a small one can be a decompression bomb), and not
 * for a cross-origin response in a browser (type `cors`), whose `Content-Encoding` header the page cannot see.
 */
function lengthIsTheBody(response: Response): boolean {
  if (response.type === 'cors' || response.type === 'opaque') return false;
  const encoding = response.headers.get('content-encoding');
  return encoding === null || encoding.trim().toLowerCase() === 'identity';
}

/** The body, erroring once `remainingMs` pass or `maxResponseBytes` are exceeded (and cancelling the source). */
function limitBody(
  body: ReadableStream<Uint8Array>,
  remainingMs: number,
  bounds: AttemptBounds,
): ReadableStream<Uint8Array> {
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
