/**
 * The request engine: one call of one operation, from its arguments to the parsed body. It sends with ky, the URL
 * built from the generated operation's path template (`./wire`), and adds, all through ky's own options and hooks:
 * - signing per attempt, the hooks and a debug log line per attempt (`./attempt`);
 * - retries by ky (`./retry`), with the call's `Idempotency-Key` made once, the same on every retry;
 * - each attempt bounded in time and size, body included (`./transport`);
 * - typed errors (`./error-map`: ky's `beforeError` hook turns each failure into a `CardIssuingError`);
 * - request and response validation with the generated zod schemas (`./response`);
 * - the clock: a `401 AUTH_TIMESTAMP_SKEW` corrects the client's clock and the call is sent once more (`./skew`);
 * - the application's own headers (`./headers`).
 *
 * Light by construction: validation and the problem reader are loaded with `import()` on first use (`./lazy`), so a
 * page that turns validation off never loads zod. Browser-safe: no `node:` import here or below.
 * @module
 */
import ky from 'ky';
import type { Options as KyOptions, RetryOptions as KyRetryOptions } from 'ky';
import type { OperationRow } from '../operation-table';
import type { CardIssuingClientOptions, RequestOptions, RetryConfig } from '../options';
import { randomUuid } from '../signing/nonce';
import type { Signer } from '../signing/sign';
import type { ApiResponse } from './api-promise';
import { attemptHooks, observe } from './attempt';
import type { CallState, EngineContext } from './call';
import { redaction } from './call';
import type { ClientClock } from './clock';
import { timeoutError, toSdkError } from './error-map';
import { ResponseTooLargeError } from './errors/classes';
import { mergeHeaders } from './headers';
import type { Log } from './logger';
import { responseValidation, validateRequest, validateResponse } from './response';
import { kyRetry, needsIdempotencyKey, resolveRetry } from './retry';
import { correctClock } from './skew';
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

const DEFAULT_TIMEOUT_MS = 30_000;
const JSON_CONTENT = { 'Content-Type': 'application/json' } as const;

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
  const engine: EngineContext = {
    apiSecret,
    baseUrl,
    maxResponseBytes,
    signer,
    clock,
    log,
    hooks: options.hooks ?? {},
    // A secret of 16+ bytes in base64 (what `openssl rand -base64` makes) may be meant to be decoded: said on a mismatch.
    secretFacts: {
      encoding: options.secretEncoding ?? 'utf8',
      looksBase64: apiSecret.length >= 24 && apiSecret.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(apiSecret),
    },
    responseMode: responseValidation(options.validateResponses),
    warned: new Set<string>(),
  };
  const validateRequests = options.validateRequests ?? true;
  const clientHeaders = mergeHeaders('createCardIssuingClient', options.headers);
  const hasClientHeaders = Object.keys(clientHeaders).length > 0;
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
    const retry = callOptions.retry === undefined ? clientRetry : resolveRetry(options.retry, callOptions.retry);
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // A POST is safe to retry only with an idempotency key: made once here, so every retry carries the same one.
    const idempotencyKey =
      !needsIdempotencyKey(method) || callOptions.idempotencyKey === false
        ? undefined
        : (callOptions.idempotencyKey ?? (retry.limit > 0 ? randomUuid() : undefined));
    const call: CallState = {
      operation,
      method,
      idempotencyKey,
      timeoutMs,
      attempt: 0,
      sentAt: 0,
      authorization: '',
      stringToSign: '',
      status: undefined,
      requestId: undefined,
      before: 0,
      signedOffsetMs: 0,
      headers: undefined,
      receivedAt: 0,
      url: '',
    };

    // ky's timeout ends at the response headers; this bounds the body too, in time and in size.
    const transport = boundCall(
      observe(engine, call, log.enabled('debug'), options.fetch ?? ((input, init) => globalThis.fetch(input, init))),
      {
        timeoutMs,
        maxResponseBytes,
        timeoutError: () => timeoutError(call),
        tooLargeError: () =>
          new ResponseTooLargeError({
            detail: `${operation}: the response body is larger than ${maxResponseBytes} bytes (maxResponseBytes).`,
            maxResponseBytes,
            status: call.status,
            requestId: call.requestId,
            redact: redaction(engine, call),
          }),
      },
      callOptions.signal,
    );

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
      throwHttpErrors: true,
      timeout: timeoutMs,
      retry: {
        ...retryOptions(retry, method, !needsIdempotencyKey(method) || idempotencyKey !== undefined),
        // ky asks this once an attempt has failed and its error body is read, before it waits to retry: the attempt
        // is over, so its body timer must not run on into the wait. Undefined leaves the decision to ky's rules.
        shouldRetry: () => void transport.end(),
      },
      fetch: transport.fetch,
      hooks: attemptHooks(engine, call),
    };
    const checkResponse = engine.responseMode !== false && !raw;
    const send = async (): Promise<{ data: T; response: Response }> => {
      const response = await ky(requestUrl(base, op.path, parts.path, parts.query), sendOptions);
      // No content (204, or an empty body) is an empty object, as the generated clients read it.
      const text =
        response.status === 204 || response.headers.get('content-length') === '0' ? '' : await response.text();
      const data = (text ? JSON.parse(text) : {}) as T;
      if (checkResponse) await validateResponse(engine, call, data);
      return { data, response };
    };

    let result: { data: T; response: Response };
    try {
      if (validateRequests && !raw) await validateRequest(operation, parts);
      for (let corrected = false; ; ) {
        try {
          result = await send();
          break;
        } catch (error) {
          // A clock too far from the server's: corrected from the refusal's Date, and the call sent once more.
          if (corrected || !correctClock(engine, call, error)) throw error;
          corrected = true;
        }
      }
    } catch (error) {
      // The caller's abort keeps the caller's reason, whenever it came (as fetch does).
      if (callOptions.signal?.aborted && error === callOptions.signal.reason) throw error;
      throw toSdkError(
        error,
        operation,
        call.attempt > 0 ? { status: call.status, requestId: call.requestId } : undefined,
        redaction(engine, call),
      );
    } finally {
      transport.end();
    }
    return {
      data: result.data,
      status: result.response.status,
      headers: result.response.headers,
      requestId: call.requestId, // the last attempt's, read where it arrived
    };
  };
}
