/**
 * The bounds of one call, which ky's would not set: ky's `timeout` ends when an attempt's response headers arrive, so
 * a server that sends headers and then stalls, or sends a body without end, would hold the call (and grow its
 * memory) forever; and it bounds each attempt, not the call, so retries and their waits (`Retry-After`) could add up
 * to minutes. {@link boundCall} wraps the client's `fetch` so that each attempt's body is read within what is left of
 * `timeoutMs` and is never larger than `maxResponseBytes`, and ends the whole call at its deadline; past any of them,
 * the call's signal is aborted with the SDK's typed error and the connection is released. Browser-safe (streams,
 * timers and abort signals only).
 *
 * Two ways for a body, by what the response declares:
 * - a `Content-Length` within the limit that is the body's own length (no content encoding, and not a cross-origin
 *   response in a browser, whose encoding is hidden; what the service and the mock send): passed on as it is,
 *   and the attempt's timer aborts the call's signal, which every request of the call carries, when the body is
 *   late; fetch then errors the body with the timeout. Nothing stands between fetch and the reader: no second stream, no
 *   second `Response`, which were a tenth of the SDK's own cost per call on loopback.
 * - any other (chunked, or encoded): the body is read through a stream that counts its decoded bytes and has its own
 *   timer.
 *
 * The deadline's timer is set only once a call goes on past its first attempt (a retry, a clock correction): the
 * first attempt's own timer is no longer than the deadline.
 * @module
 */

/** What {@link boundCall} needs. */
export interface CallBounds {
  /** Milliseconds for each attempt: the request, the headers and the body. */
  timeoutMs: number;
  /** Milliseconds for the whole call: every attempt and every wait between them. */
  deadlineMs: number;
  /** The most response-body bytes an attempt may read. */
  maxResponseBytes: number;
  /** The error an attempt that did not end in time fails with. */
  timeoutError(): Error;
  /** The error the call fails with at its deadline. */
  deadlineError(): Error;
  /** The error a body too large fails with. */
  tooLargeError(): Error;
}

type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** One call's transport: its bounded `fetch`, the signal its requests carry, its deadline and its end. */
export interface BoundedCall {
  /** `fetch` with every attempt bounded in time (body included) and in response size. */
  fetch: Fetch;
  /** The signal every request of the call must carry: the caller's, the body timer's and the deadline's. */
  signal: AbortSignal;
  /** Milliseconds left until the call's deadline. */
  remainingMs(): number;
  /** The call goes on past an attempt (a wait, a retry): from now on the deadline aborts it. */
  armDeadline(): void;
  /** Waits `ms` before a retry; the call's signal (the caller's abort, the deadline) ends the wait with its reason. */
  wait(ms: number): Promise<void>;
  /**
   * The current attempt is over (its body read, or it failed): its body timer stops. The caller must say so before
   * any wait for a retry, or the timer would abort the call during the wait. `call` also ends the deadline.
   */
  end(call: boolean): void;
}

/**
 * Bounds every attempt of one call and the call itself; `callerSignal` is the caller's own (it still aborts). ky's own
 * per-attempt timeout is off: one timer here covers an attempt from its request to the end of its body (ky's adds a
 * promise and a timer per attempt, about a tenth of a call's cost on loopback).
 */
export function boundCall(fetch: Fetch, bounds: CallBounds, callerSignal?: AbortSignal): BoundedCall {
  const controller = new AbortController();
  // A monotonic clock, as ky's: a wall clock that an NTP step moves would move the deadline.
  const deadlineAt = performance.now() + bounds.deadlineMs;
  let attemptTimer: ReturnType<typeof setTimeout> | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const remainingMs = () => Math.max(0, deadlineAt - performance.now());
  /** What is left of an attempt that started at `start`, or of the call when its deadline comes first. */
  const bound = (start: number): { ms: number; late: () => Error } => {
    const attemptLeft = Math.max(0, bounds.timeoutMs - (performance.now() - start));
    const callLeft = remainingMs();
    return callLeft < attemptLeft
      ? { ms: callLeft, late: bounds.deadlineError }
      : { ms: attemptLeft, late: bounds.timeoutError };
  };
  const boundedFetch: Fetch = async (input, init) => {
    clearTimeout(attemptTimer); // a retry: the previous attempt is over
    const start = performance.now();
    // One timer for the whole attempt, headers and body: its abort makes fetch reject, or errors the body being read.
    const first = bound(start);
    attemptTimer = unref(setTimeout(() => controller.abort(first.late()), first.ms));
    const response = await fetch(input, init);
    const header = response.headers.get('content-length');
    const declared = header === null ? Number.NaN : Number(header);
    if (declared > bounds.maxResponseBytes) {
      clearTimeout(attemptTimer);
      await response.body?.cancel().catch(() => undefined);
      throw bounds.tooLargeError();
    }
    if (!response.body) {
      clearTimeout(attemptTimer);
      return response;
    }
    if (Number.isSafeInteger(declared) && lengthIsTheBody(response)) return response;
    // Counted and timed by a stream of its own, which does not depend on how a fetch ends a body on abort.
    clearTimeout(attemptTimer);
    const rest = bound(start);
    return new Response(limitBody(response.body, rest.ms, rest.late, bounds), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  const signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
  return {
    fetch: boundedFetch,
    signal,
    remainingMs,
    armDeadline() {
      deadlineTimer ??= unref(setTimeout(() => controller.abort(bounds.deadlineError()), remainingMs()));
    },
    wait: (ms) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(signal.reason);
        const done = () => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', done);
          resolve();
        }, ms);
        signal.addEventListener('abort', done, { once: true });
      }),
    end(call) {
      clearTimeout(attemptTimer);
      if (call) clearTimeout(deadlineTimer);
    },
  };
}

/** In Node, a pending timer of the SDK must not keep the process alive on its own. */
function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
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

/** The body, erroring once `remainingMs` pass (with `late()`) or `maxResponseBytes` are exceeded (cancelling the source). */
function limitBody(
  body: ReadableStream<Uint8Array>,
  remainingMs: number,
  late: () => Error,
  bounds: CallBounds,
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
      timer = unref(setTimeout(() => stop(late()), Math.max(0, remainingMs)));
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
