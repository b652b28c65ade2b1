/**
 * Each attempt of a call, wired through ky's hooks and the transport: signing (contract section 2) in
 * `beforeRequest`, and again in `beforeRetry` (ky 2 runs `beforeRequest` once per call and `beforeRetry` before every
 * retry, so every attempt gets a fresh nonce and timestamp, signed with the client's corrected time: `./clock`);
 * the `onRequest`, `onRetry` and `onResponse` hooks; a debug log line per attempt (`./logger`).
 * @module
 */
import type { Hooks as KyHooks } from 'ky';
import { type CallState, type EngineContext, notify, requestEvent } from './call';
import { mapKyError } from './error-map';
import { CardIssuingError } from './errors/base';
import { formatAttempt } from './logger';

/** The `fetch` the transport wraps. */
export type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Signs one attempt's request: sets its `Authorization` and records what an error or a hook may need. */
async function sign(engine: EngineContext, call: CallState, request: Request): Promise<void> {
  const { signer, clock } = engine;
  // The five published parts never include the body: read it only when the body hash is on.
  const body = signer.bodyHash && request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
  call.signedOffsetMs = clock.offsetMs;
  // Read once: a Request's url getter serialises the URL on every read.
  const url = request.url;
  const signed = await signer.sign({
    method: request.method,
    url,
    body,
    timestamp: Math.floor(clock.now() / 1000),
  });
  request.headers.set('Authorization', signed.authorization);
  call.authorization = signed.authorization;
  call.stringToSign = signed.stringToSign;
  call.url = url;
  call.sentAt = Date.now();
  notify(engine.hooks.onRequest, () => requestEvent(call, request));
}

/** ky's hooks for one call: every attempt signed, every retry reported, every failure a typed error. */
export function attemptHooks(engine: EngineContext, call: CallState): KyHooks {
  return {
    beforeRequest: [
      async ({ request }) => {
        call.attempt = call.before + 1;
        await sign(engine, call, request);
      },
    ],
    beforeRetry: [
      async ({ request, error, retryCount }) => {
        call.attempt = call.before + retryCount + 1;
        const reason = await mapKyError(engine, call, error);
        if (reason instanceof CardIssuingError)
          notify(engine.hooks.onRetry, () => ({ ...requestEvent(call, request), error: reason }));
        await sign(engine, call, request); // fresh nonce and timestamp: the server refuses a replayed nonce
      },
    ],
    beforeError: [({ error }) => mapKyError(engine, call, error)],
  };
}

/**
 * Each attempt's response, seen where it arrives: in the transport, not in a ky afterResponse hook, for which ky
 * clones every response (a tee of its body, a third of the SDK's own cost per call on loopback).
 */
export function observe(engine: EngineContext, call: CallState, debug: boolean, fetch: FetchFunction): FetchFunction {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      if (debug)
        logAttempt(
          engine,
          call,
          undefined,
          error instanceof CardIssuingError ? error.code : error instanceof Error ? error.name : 'ERROR',
        );
      throw error;
    }
    call.receivedAt = Date.now();
    call.status = response.status;
    call.requestId = response.headers.get('x-request-id') ?? undefined;
    call.headers = response.headers; // Date is read only after a skew refusal
    if (debug) logAttempt(engine, call, response.status);
    notify(engine.hooks.onResponse, () => ({
      operation: call.operation,
      method: call.method,
      url: input instanceof Request ? input.url : String(input),
      attempt: call.attempt,
      idempotencyKey: call.idempotencyKey,
      clockOffsetMs: call.signedOffsetMs,
      status: response.status,
      requestId: call.requestId,
      elapsedMs: Date.now() - call.sentAt,
    }));
    return response;
  };
}

function logAttempt(engine: EngineContext, call: CallState, status: number | undefined, code?: string): void {
  const path = call.url ? new URL(call.url).pathname : '';
  engine.log.debug(
    formatAttempt({
      method: call.method,
      path,
      status,
      durationMs: Date.now() - call.sentAt,
      requestId: status === undefined ? undefined : call.requestId,
      retry: call.attempt - 1,
      clockOffsetMs: call.signedOffsetMs,
      code,
    }),
  );
}
