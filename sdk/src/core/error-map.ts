/**
 * The engine's errors: every failure of a call becomes a typed {@link CardIssuingError}. ky's failures (an error
 * response, a timeout, an unreachable server) in ky's `beforeError` and `beforeRetry` hooks; what fails outside ky
 * (a body that is not JSON, a validator giving way) at the end of the call. An error response is read by
 * `./errors/from-response`, loaded on the first one (`./lazy`).
 * @module
 */
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { type CallState, type EngineContext, redaction } from './call';
import { CardIssuingError } from './errors/base';
import { NetworkError, ResponseValidationError, TimeoutError } from './errors/classes';
import { loadFromResponse } from './lazy';

/** The call's timeout, as the error a caller sees (ky's, the body's or the transport's). */
export function timeoutError(call: CallState): TimeoutError {
  return new TimeoutError({
    code: 'TIMEOUT',
    detail: `${call.operation}: no complete response within ${call.timeoutMs} ms.`,
    timeoutMs: call.timeoutMs,
  });
}

/** A failure as ky reports it, as the SDK's typed error (an abort and the SDK's own errors pass unchanged). */
export async function mapKyError(engine: EngineContext, call: CallState, error: Error): Promise<Error> {
  if (error instanceof CardIssuingError) return error;
  if (isHTTPError(error)) {
    return (await loadFromResponse()).errorFromResponse({
      status: error.response.status,
      headers: error.response.headers,
      body: error.data,
      redact: redaction(engine, call),
      signedString: call.stringToSign,
      secret: engine.secretFacts,
    });
  }
  if (isTimeoutError(error)) return timeoutError(call);
  if (isNetworkError(error)) {
    // The cause is the transport's error, never ky's (which holds the signed request).
    const cause = error.cause;
    const reason = cause instanceof Error ? `: ${cause.message}` : '';
    return new NetworkError({
      code: 'NETWORK_ERROR',
      detail: `${call.operation}: could not reach ${engine.baseUrl.origin}${reason}.`,
      cause,
    });
  }
  return error; // an abort keeps the signal's reason, as fetch does
}

/** Errors that reach us outside ky and our validators: a body that is not JSON, a validator giving way. */
export function toSdkError(
  error: unknown,
  operation: string,
  response: { status: number | undefined; requestId: string | undefined } | undefined,
  redact: string[],
): unknown {
  const sent = response !== undefined;
  if (error instanceof CardIssuingError) return error;
  if (error instanceof SyntaxError && sent) {
    // Never pass the SyntaxError on: its message quotes the body.
    return new ResponseValidationError({
      operation,
      errors: [{ path: '', message: 'The response body is not JSON' }],
      ...response,
      redact,
    });
  }
  if (sent && response.status !== undefined && response.status < 300 && error instanceof Error && !isAbort(error)) {
    // Whatever else fails on a received body (a validator giving way on a huge or deep body: RangeError) is still
    // a response that could not be validated; its own message may quote the body, so it is not passed on.
    return new ResponseValidationError({
      operation,
      errors: [{ path: '', message: `The response could not be validated (${error.name})` }],
      ...response,
      redact,
    });
  }
  return error;
}

function isAbort(error: Error): boolean {
  return error.name === 'AbortError';
}
