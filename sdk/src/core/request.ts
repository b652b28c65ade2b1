/**
 * The request engine: one call of one operation, from its arguments to the parsed body. It sends with ky, the URL
 * built from the generated operation's path template (`./wire`), and adds, all through ky's own options and hooks:
 * - signing (contract section 2) in `beforeRequest`, and again in `beforeRetry`: ky 2 runs `beforeRequest` once
 *   per call and `beforeRetry` before every retry, so every attempt gets a fresh nonce and timestamp;
 * - retries by ky (`./retry`), with the call's `Idempotency-Key` made once, the same on every retry;
 * - each attempt bounded in time and size, body included (`./transport`);
 * - typed errors (ky's `beforeError` hook turns each failure into a {@link CardIssuingError});
 * - request and response validation with the generated zod schemas (`./validation`): the arguments before anything
 *   is sent, the parsed body after; in `'warn'` mode differences are reported (logger and hook, once per
 *   operation and path) and the body is returned as sent;
 * - the clock: every attempt is signed with the client's corrected time (`./clock`); a `401 AUTH_TIMESTAMP_SKEW`
 *   sets the offset from the response's `Date` and the call is sent once more;
 * - a debug log line per attempt (`./logger`), and the application's own headers (`./headers`).
 *
 * Light by construction: validation and the problem reader are loaded with `import()` on first use, so a page that
 * turns validation off never loads zod. Browser-safe: no `node:` import here or below.
 * @module
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import type { Options as KyOptions, RetryOptions as KyRetryOptions } from 'ky';
import type { OperationId, OperationRow } from '../operation-table';
import type { CardIssuingClientOptions, RequestEvent, RequestOptions, RetryConfig } from '../options';
import type { ClientClock } from './clock';
import { offsetFromDate } from './clock';
import { mergeHeaders } from './headers';
import { formatAttempt, type Log } from './logger';
import { randomUuid } from '../signing/nonce';
import type { Signer } from '../signing/sign';
import type { ApiResponse } from './api-promise';
import { CardIssuingError } from './errors/base';
import {
  NetworkError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  ValidationError,
} from './errors/classes';
import { kyRetry, needsIdempotencyKey, resolveRetry } from './retry';
import { boundCall } from './transport';
import { jsonBody, requestUrl, type CallParts } from './wire';

/** An operation of the spec, as the engine needs it: its id, HTTP method and path template (all generated). */
export type Operation = Pick<OperationRow, 'operationId' | 'method' | 'path'>;

/**
 * A request the spec does not name (`client.request()`): no schema to validate against; named `METHOD /path`;
 * its `path` is sent as given (no placeholders filled).
 */
export interface RawOperation {
  operationId: string;
  method: string;
  path: string;
  raw: true;
}

// Loaded on first use, then shared by every client: a separate chunk in a bundle, never loaded when unused.
// Validation runs on every call: once loaded, its module is used without another await.
let validation: typeof import('./validation') | undefined;
let validationLoad: Promise<typeof import('./validation')> | undefined;
const loadValidation = async () => {
  validationLoad ??= import('./validation').then((module) => {
    validation = module;
    return module;
  });
  return validation ?? validationLoad;
};
// The mapping of an error response (the problem reader with zod, the classes by status, the hints) loads with the
// first error response: a page whose calls succeed never loads it.
let fromResponse: Promise<typeof import('./errors/from-response')> | undefined;
const loadFromResponse = () => (fromResponse ??= import('./errors/from-response'));

const DEFAULT_TIMEOUT_MS = 30_000;
const JSON_CONTENT = { 'Content-Type': 'application/json' } as const;

type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** What {@link createEngine} needs: the client's options, checked, and what the client made once. */
export interface EngineConfig {
  options: CardIssuingClientOptions;
  baseUrl: URL;
  maxResponseBytes: number;
  signer: Signer;
  /** The client's clock (local time plus the offset to the server's). */
  clock: ClientClock;
  log: Log;
}

/** Runs one call of an operation: the engine of every method of a client. */
export type Run = <T>(
  operation: Operation | RawOperation,
  callOptions: RequestOptions,
  parts: CallParts,
) => Promise<ApiResponse<T>>;

/** The engine of one client. */
export function createEngine({ options, baseUrl, maxResponseBytes, signer, clock, log }: EngineConfig): Run {
  const { apiSecret } = options;
  // Every call's URL starts with this (the base URL without its trailing slashes).
  const base = baseUrl.href.replace(/\/+$/, '');
  const responseMode = responseValidation(options.validateResponses);
  const validateRequests = options.validateRequests ?? true;
  const hooks = options.hooks ?? {};
  const clientHeaders = mergeHeaders('createCardIssuingClient', options.headers);
  // A secret of 16+ bytes in base64 (what `openssl rand -base64` makes) may be meant to be decoded: said on a mismatch.
  const secretFacts = {
    encoding: options.secretEncoding ?? 'utf8',
    looksBase64: apiSecret.length >= 24 && apiSecret.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(apiSecret),
  } as const;
  const hasClientHeaders = Object.keys(clientHeaders).length > 0;
  // What 'warn' mode already reported, as `operation path` (array indices as []).
  const warned = new Set<string>();
  const clientRetry = resolveRetry(options.retry, undefined);
  // The client's own retry options, made once per method and retryability instead of once per call.
  const clientKyRetry = new Map<string, KyRetryOptions>();
  const retryOptions = (retry: Required<RetryConfig>, method: string, retryable: boolean): KyRetryOptions => {
    if (retry !== clientRetry) return kyRetry(retry, method, retryable);
    const key = `${method}:${retryable}`;
    let made = clientKyRetry.get(key);
    if (!made) {
      made = kyRetry(retry, method, retryable);
      clientKyRetry.set(key, made);
    }
    return made;
  };

  return async function run<T>(
    op: Operation | RawOperation,
    callOptions: RequestOptions,
    parts: CallParts,
  ): Promise<ApiResponse<T>> {
    const { operationId: operation, method } = op;
    const raw = 'raw' in op;
    const headers =
      callOptions.headers === undefined
        ? hasClientHeaders
          ? clientHeaders
          : undefined
        : mergeHeaders(operation, clientHeaders, callOptions.headers);
    const debug = log.enabled('debug');
    const retry = callOptions.retry === undefined ? clientRetry : resolveRetry(options.retry, callOptions.retry);
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A POST is safe to retry only with an idempotency key: made once here, so every retry carries the same one.
    const idempotencyKey =
      !needsIdempotencyKey(method) || callOptions.idempotencyKey === false
        ? undefined
        : (callOptions.idempotencyKey ?? (retry.limit > 0 ? randomUuid() : undefined));
    const state = {
      attempt: 0,
      sentAt: 0,
      authorization: '',
      stringToSign: '',
      status: undefined as number | undefined,
      requestId: undefined as string | undefined,
      /** Attempts of the call before the current send (the clock-skew retry sends once more). */
      before: 0,
      signedOffsetMs: 0,
      headers: undefined as Headers | undefined,
      receivedAt: 0,
      url: '',
    };
    const event = (request: Request): RequestEvent => ({
      operation,
      method,
      url: request.url,
      attempt: state.attempt,
      idempotencyKey,
      clockOffsetMs: state.signedOffsetMs,
    });
    // What no error may show, even when a hostile server echoes it: the secret, the header and its signature.
    const redact = () => [apiSecret, state.authorization, state.authorization.split(':')[1] ?? ''];
    const timeoutError = () =>
      new TimeoutError({
        code: 'TIMEOUT',
        detail: `${operation}: no complete response within ${timeoutMs} ms.`,
        timeoutMs,
      });

    const mapKyError = async (error: Error): Promise<Error> => {
      if (error instanceof CardIssuingError) return error;
      if (isHTTPError(error)) {
        return (await loadFromResponse()).errorFromResponse({
          status: error.response.status,
          headers: error.response.headers,
          body: error.data,
          redact: redact(),
          signedString: state.stringToSign,
          secret: secretFacts,
        });
      }
      if (isTimeoutError(error)) return timeoutError();
      if (isNetworkError(error)) {
        // The cause is the transport's error, never ky's (which holds the signed request).
        const cause = error.cause;
        const reason = cause instanceof Error ? `: ${cause.message}` : '';
        return new NetworkError({
          code: 'NETWORK_ERROR',
          detail: `${operation}: could not reach ${baseUrl.origin}${reason}.`,
          cause,
        });
      }
      return error; // an abort keeps the signal's reason, as fetch does
    };

    const sign = async (request: Request) => {
      // The five published parts never include the body: read it only when the body hash is on.
      const body = signer.bodyHash && request.body ? new Uint8Array(await request.clone().arrayBuffer()) : undefined;
      state.signedOffsetMs = clock.offsetMs;
      // Read once: a Request's url getter serialises the URL on every read.
      const url = request.url;
      const signed = await signer.sign({
        method: request.method,
        url,
        body,
        timestamp: Math.floor(clock.now() / 1000),
      });
      request.headers.set('Authorization', signed.authorization);
      state.authorization = signed.authorization;
      state.stringToSign = signed.stringToSign;
      state.url = url;
      state.sentAt = Date.now();
      notify(hooks.onRequest, () => event(request));
    };

    // Each attempt's response, seen where it arrives: in the transport, not in a ky afterResponse hook, for which
    // ky clones every response (a tee of its body, a third of the SDK's own cost per call on loopback).
    const observe =
      (fetch: FetchFunction): FetchFunction =>
      async (input, init) => {
        let response: Response;
        try {
          response = await fetch(input, init);
        } catch (error) {
          if (debug)
            logAttempt(
              undefined,
              error instanceof CardIssuingError ? error.code : error instanceof Error ? error.name : 'ERROR',
            );
          throw error;
        }
        state.receivedAt = Date.now();
        state.status = response.status;
        state.requestId = response.headers.get('x-request-id') ?? undefined;
        state.headers = response.headers; // Date is read only after a skew refusal
        if (debug) logAttempt(response.status);
        notify(hooks.onResponse, () => ({
          operation,
          method,
          url: input instanceof Request ? input.url : String(input),
          attempt: state.attempt,
          idempotencyKey,
          clockOffsetMs: state.signedOffsetMs,
          status: response.status,
          requestId: state.requestId,
          elapsedMs: Date.now() - state.sentAt,
        }));
        return response;
      };
    const logAttempt = (status: number | undefined, code?: string) => {
      const path = state.url ? new URL(state.url).pathname : '';
      log.debug(
        formatAttempt({
          method,
          path,
          status,
          durationMs: Date.now() - state.sentAt,
          requestId: status === undefined ? undefined : state.requestId,
          retry: state.attempt - 1,
          clockOffsetMs: state.signedOffsetMs,
          code,
        }),
      );
    };

    // ky's timeout ends at the response headers; this bounds the body too, in time and in size.
    const transport = boundCall(
      observe(options.fetch ?? ((input, init) => globalThis.fetch(input, init))),
      {
        timeoutMs,
        maxResponseBytes,
        timeoutError,
        tooLargeError: () =>
          new ResponseTooLargeError({
            detail: `${operation}: the response body is larger than ${maxResponseBytes} bytes (maxResponseBytes).`,
            maxResponseBytes,
            status: state.status,
            requestId: state.requestId,
            redact: redact(),
          }),
      },
      callOptions.signal,
    );

    const kyOptions: KyOptions = {
      throwHttpErrors: true,
      timeout: timeoutMs,
      retry: {
        ...retryOptions(retry, method, !needsIdempotencyKey(method) || idempotencyKey !== undefined),
        // ky asks this once an attempt has failed and its error body is read, before it waits to retry: the attempt
        // is over, so its body timer must not run on into the wait. Undefined leaves the decision to ky's rules.
        shouldRetry: () => void transport.end(),
      },
      fetch: transport.fetch,
      hooks: {
        beforeRequest: [
          async ({ request }) => {
            state.attempt = state.before + 1;
            await sign(request);
          },
        ],
        beforeRetry: [
          async ({ request, error, retryCount }) => {
            state.attempt = state.before + retryCount + 1;
            const reason = await mapKyError(error);
            if (reason instanceof CardIssuingError) notify(hooks.onRetry, () => ({ ...event(request), error: reason }));
            await sign(request); // fresh nonce and timestamp: the server refuses a replayed nonce
          },
        ],
        beforeError: [({ error }) => mapKyError(error)],
      },
    };

    const validateRequest =
      validateRequests && !raw
        ? async () => {
            // The request schema covers { body, path, query, headers }; headers are the SDK's own, not checked here.
            const errors = (validation ?? (await loadValidation())).requestErrors(operation as OperationId, {
              path: parts.path,
              query: parts.query,
              body: parts.body,
            });
            if (errors) {
              throw new ValidationError({
                code: 'VALIDATION_FAILED',
                detail: `${operation}: the request was not sent, ${errors.length === 1 ? '1 argument is' : `${errors.length} arguments are`} invalid (${errors.map((e) => e.path).join(', ')}).`,
                errors,
              });
            }
          }
        : undefined;
    const validateResponse =
      responseMode && !raw
        ? async (data: unknown) => {
            const errors = (validation ?? (await loadValidation())).responseErrors(operation as OperationId, data);
            if (!errors) return;
            // Paths and messages can hold a hostile server's key names: redacted like everything else it sends.
            if (responseMode === 'strict') {
              throw new ResponseValidationError({
                operation,
                errors: errors.slice(0, MAX_REPORTED_ERRORS),
                status: state.status,
                requestId: state.requestId,
                redact: redact(),
              });
            }
            for (const warning of (validation ?? (await loadValidation())).newDifferences(
              operation,
              errors.slice(0, MAX_REPORTED_ERRORS),
              warned,
            )) {
              log.warn(warning.line);
              notify(hooks.onValidationWarning, () => ({
                operation,
                method,
                url: state.url,
                path: warning.path,
                message: warning.message,
                status: state.status,
                requestId: state.requestId,
              }));
            }
          }
        : undefined;

    const body = parts.body === undefined ? undefined : jsonBody(parts.body);
    const sendOptions: KyOptions = {
      method,
      // The call's own headers may replace the Content-Type (never Authorization or Idempotency-Key: ./headers).
      headers: {
        ...(body === undefined ? undefined : JSON_CONTENT),
        ...headers,
        ...(idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey }),
      },
      body,
      signal: transport.signal,
      ...kyOptions,
    };
    const send = async (): Promise<{ data: T; response: Response }> => {
      const response = await ky(requestUrl(base, op.path, parts.path, parts.query), sendOptions);
      // No content (204, or an empty body) is an empty object, as the generated clients read it.
      const text =
        response.status === 204 || response.headers.get('content-length') === '0' ? '' : await response.text();
      const data = (text ? JSON.parse(text) : {}) as T;
      if (validateResponse) await validateResponse(data);
      return { data, response };
    };

    let result: { data: T; response: Response };
    try {
      if (validateRequest) await validateRequest();
      for (let corrected = false; ; ) {
        try {
          result = await send();
          break;
        } catch (error) {
          // A clock too far from the server's: take the offset from its Date, and send once more with it.
          const date = !corrected && isSkew(error) ? (state.headers?.get('date') ?? null) : null;
          const offset = date === null ? undefined : offsetFromDate(date, state.sentAt, state.receivedAt);
          if (offset === undefined) throw error;
          corrected = true;
          const previousOffsetMs = state.signedOffsetMs;
          clock.offsetMs = offset;
          log.warn(
            `card-issuing-sdk: ${operation} was refused with AUTH_TIMESTAMP_SKEW; the server's clock is ${Math.round(offset / 1000)} s from this host's (Date: ${date}). Signing with the corrected time from now on (clockOffsetMs ${offset}).`,
          );
          notify(hooks.onClockSkew, () => ({
            operation,
            method,
            url: state.url,
            attempt: state.attempt,
            idempotencyKey,
            clockOffsetMs: previousOffsetMs,
            previousOffsetMs,
            offsetMs: offset,
            serverDate: date!,
          }));
          state.before = state.attempt;
        }
      }
    } catch (error) {
      // The caller's abort keeps the caller's reason, whenever it came (as fetch does).
      if (callOptions.signal?.aborted && error === callOptions.signal.reason) throw error;
      throw toSdkError(
        error,
        operation,
        state.attempt > 0 ? { status: state.status, requestId: state.requestId } : undefined,
        redact(),
      );
    } finally {
      transport.end();
    }
    return {
      data: result.data,
      status: result.response.status,
      headers: result.response.headers,
      requestId: state.requestId, // the last attempt's, read where it arrived
    };
  };
}

/** Errors that reach us outside ky and our validators: a body that is not JSON, a validator giving way. */
function toSdkError(
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

/** The `validateResponses` option as a mode; `true` is `'strict'` (the default). */
function responseValidation(value: unknown): 'strict' | 'warn' | false {
  if (value === undefined || value === true || value === 'strict') return 'strict';
  if (value === 'warn' || value === false) return value;
  throw new TypeError(
    `createCardIssuingClient: validateResponses must be 'strict', 'warn' or false (got ${JSON.stringify(value)}).`,
  );
}

/** A refusal of the request's timestamp. */
function isSkew(error: unknown): boolean {
  return error instanceof CardIssuingError && error.status === 401 && error.code === 'AUTH_TIMESTAMP_SKEW';
}

/** At most this many mismatches are kept in a ResponseValidationError (a hostile body could make millions). */
const MAX_REPORTED_ERRORS = 100;

function isAbort(error: Error): boolean {
  return error.name === 'AbortError';
}

/** Calls an observer with the event `make` builds (only when there is an observer). */
function notify<E>(hook: ((event: E) => void) | undefined, make: () => E): void {
  if (!hook) return;
  try {
    hook(make());
  } catch {
    // An observer must never break a request.
  }
}
