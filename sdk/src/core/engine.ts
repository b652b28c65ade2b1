/**
 * The request engine: one call of one operation, from the client's options to the wire and back to a parsed body,
 * in the order it happens. {@link createEngine} makes once what every call shares (headers, retry options, the
 * bounds); {@link Call} is one call and holds all of its state: what its latest attempt signed, sent and received,
 * read by the hooks, the log, the clock correction and the errors.
 *
 * A call: check its arguments (the lazily loaded zod schemas) → send each attempt with ky (no redirect followed,
 * no ky hook: ky merges and runs them on every call), signed where ky hands it to fetch → bound each attempt, body
 * included, and the whole call by its deadline
 * (`./transport`) → observe each response where it arrives (hooks, debug log) → parse and check the body → on
 * failure, the typed error (`./errors/`); then a retry after its wait (`./retry`: ky's rules, run here, because ky
 * clones every request it may retry, a fifth of a call's cost), or after a `401 AUTH_TIMESTAMP_SKEW` the clock
 * corrected and the call sent once more.
 *
 * Light by construction: validation and the problem reader load with `import()` on first use (`./lazy`), so a page
 * that turns validation off never loads zod. Browser-safe: no `node:` import here or below.
 * @module
 */
import ky, { isHTTPError, isNetworkError } from 'ky';
import type { Options as KyOptions } from 'ky';
import type { OperationId, OperationRow } from '../operation-table';
import type { CardIssuingClientOptions, ClientHooks, RequestEvent, RequestOptions, RetryConfig } from '../options';
import type { SecretEncoding } from '../signing/hmac-key';
import { randomUuid } from '../signing/nonce';
import type { Signer } from '../signing/sign';
import type { ApiResponse } from './api-promise';
import type { ClientClock } from './clock';
import { CardIssuingError } from './errors/base';
import { DeadlineExceededError, NetworkError, ResponseTooLargeError, TimeoutError } from './errors/classes';
import { mergeHeaders } from './headers';
import { loadedErrorResponse, loadedValidation, loadErrorResponse, loadValidation } from './lazy';
import { formatAttempt, type Log } from './logger';
import { needsIdempotencyKey, resolveRetry, retryWaitMs } from './retry';
import { boundCall, type BoundedCall } from './transport';
import { type CallParts, jsonBody, requestUrl } from './wire';

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

const DEFAULT_TIMEOUT_MS = 30_000;
/** No call lasts longer than this by default, retries and `Retry-After` waits included (or `timeoutMs`, if longer). */
const DEFAULT_DEADLINE_MS = 60_000;
const JSON_CONTENT = { 'Content-Type': 'application/json' } as const;

/** What a client's engine made once, read by every call. */
interface Client {
  readonly base: string;
  readonly origin: string;
  readonly apiSecret: string;
  readonly maxResponseBytes: number;
  readonly signer: Signer;
  readonly clock: ClientClock;
  readonly log: Log;
  readonly debug: boolean;
  readonly hooks: ClientHooks;
  /** How the secret became the HMAC key: said on a signature mismatch (`./error-response`). */
  readonly secretEncoding: SecretEncoding;
  readonly responseMode: 'strict' | 'warn' | false;
  readonly validateRequests: boolean;
  /** What 'warn' mode already reported, as `operation path` (array indices as []). */
  readonly warned: Set<string>;
  readonly options: CardIssuingClientOptions;
  readonly headers: Record<string, string> | undefined;
  readonly retry: Required<RetryConfig>;
  /** The application's own `fetch` option, or undefined for the runtime's (read when each attempt is sent). */
  readonly fetch: ((input: Request | URL | string, init?: RequestInit) => Promise<Response>) | undefined;
}

/** The engine of one client. */
export function createEngine(config: EngineConfig): Run {
  const client = clientOf(config);
  return <T>(op: Operation | RawOperation, callOptions: RequestOptions, parts: CallParts) =>
    new Call(client, op, callOptions, parts).run<T>();
}

/** Everything a client's calls share, made once from its options. */
function clientOf({ options, baseUrl, maxResponseBytes, signer, clock, log }: EngineConfig): Client {
  const { apiSecret } = options;
  const headers = mergeHeaders('createCardIssuingClient', options.headers);
  return {
    // Every call's URL starts with this (the base URL without its trailing slashes).
    base: baseUrl.href.replace(/\/+$/, ''),
    origin: baseUrl.origin,
    apiSecret,
    maxResponseBytes,
    signer,
    clock,
    log,
    debug: log.enabled('debug'),
    hooks: options.hooks ?? {},
    secretEncoding: options.secretEncoding ?? 'utf8',
    responseMode: responseValidation(options.validateResponses),
    validateRequests: options.validateRequests ?? true,
    warned: new Set<string>(),
    options,
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    retry: resolveRetry(options.retry, undefined),
    fetch: options.fetch,
  };
}

/** The `validateResponses` option as a mode; `true` is `'strict'` (the default). */
function responseValidation(value: unknown): 'strict' | 'warn' | false {
  if (value === undefined || value === true || value === 'strict') return 'strict';
  if (value === 'warn' || value === false) return value;
  throw new TypeError(
    `createCardIssuingClient: validateResponses must be 'strict', 'warn' or false (got ${JSON.stringify(value)}).`,
  );
}

/** One call: its fixed parts, and what the latest attempt left (read by errors, hooks and the log). */
class Call {
  readonly operation: string;
  readonly method: string;
  readonly idempotencyKey: string | undefined;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly #client: Client;
  readonly #op: Operation | RawOperation;
  readonly #options: RequestOptions;
  readonly #parts: CallParts;
  readonly #body: string | undefined;
  readonly #retry: Required<RetryConfig>;
  readonly #transport: BoundedCall;
  /** The attempt being sent (1 for the first); retries made; whether the clock was corrected (once per call). */
  attempt = 0;
  #retries = 0;
  #corrected = false;
  /** What the latest attempt signed and sent. */
  #signed = { url: '', authorization: '', stringToSign: '', offsetMs: 0, at: 0 };
  /** What the latest attempt received. */
  #received: { status: number; requestId: string | undefined; headers: Headers; at: number } | undefined;

  constructor(client: Client, op: Operation | RawOperation, options: RequestOptions, parts: CallParts) {
    this.#client = client;
    this.#op = op;
    this.#options = options;
    this.#parts = parts;
    this.operation = op.operationId;
    this.method = op.method;
    const clientOptions = client.options;
    this.#retry = options.retry === undefined ? client.retry : resolveRetry(clientOptions.retry, options.retry);
    this.timeoutMs = options.timeoutMs ?? clientOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.deadlineMs = options.deadlineMs ?? clientOptions.deadlineMs ?? Math.max(DEFAULT_DEADLINE_MS, this.timeoutMs);
    // A POST is safe to retry only with an idempotency key: made once here, so every retry carries the same one.
    this.idempotencyKey =
      !needsIdempotencyKey(this.method) || options.idempotencyKey === false
        ? undefined
        : (options.idempotencyKey ?? (this.#retry.limit > 0 ? randomUuid() : undefined));
    this.#body = parts.body === undefined ? undefined : jsonBody(parts.body);
    this.#transport = boundCall(
      (input, init) => this.#observe(input, init),
      {
        timeoutMs: this.timeoutMs,
        deadlineMs: this.deadlineMs,
        maxResponseBytes: client.maxResponseBytes,
        timeoutError: () => this.#timeoutError(),
        deadlineError: () => this.#deadlineError(),
        tooLargeError: () =>
          new ResponseTooLargeError({
            detail: `${this.operation}: the response body is larger than ${client.maxResponseBytes} bytes (maxResponseBytes).`,
            maxResponseBytes: client.maxResponseBytes,
            ...this.#responseFacts(),
            redact: this.#redaction(),
          }),
      },
      options.signal,
    );
  }

  /** The call, start to end: arguments checked, sent (once more after a clock correction), body parsed and checked. */
  async run<T>(): Promise<ApiResponse<T>> {
    const raw = 'raw' in this.#op;
    try {
      // Validation awaits only when it must: loading the schemas, or describing what is wrong.
      if (this.#client.validateRequests && !raw) {
        const refused = this.#validateRequest();
        if (refused) await refused;
      }
      const sendOptions = this.#kyOptions();
      for (;;) {
        try {
          return await this.#attempt<T>(sendOptions, raw);
        } catch (error) {
          this.#transport.end(false);
          await this.#retryOrThrow(error);
        }
      }
    } catch (error) {
      throw this.#passesOn(error) ? error : await this.#bodyError(error);
    } finally {
      this.#transport.end(true);
    }
  }

  /** One attempt: sent, its body read and (unless raw or validation is off) checked against the response schema. */
  async #attempt<T>(sendOptions: KyOptions, raw: boolean): Promise<ApiResponse<T>> {
    let response: Response;
    try {
      response = await ky(this.#url(), sendOptions);
    } catch (error) {
      // What ky's beforeError hook did: ky's error as the SDK's typed error (no hook, no ky context per call).
      throw error instanceof Error ? await this.#typedError(error) : error;
    }
    const data = await this.#read<T>(response);
    if (this.#client.responseMode !== false && !raw) {
      const differs = this.#validateResponse(data);
      if (differs) await differs;
    }
    // The last attempt's request id, read where it arrived.
    return { data, status: response.status, headers: response.headers, requestId: this.#received?.requestId };
  }

  // ------------------------------------------------------------------------------------------- the request

  /**
   * ky's options for this call, only those it needs: ky merges every option it is given into a new object, key by
   * key, on every call. No hooks (each attempt is signed where it is sent, `#observe`), no context, and no signal
   * unless the application gave its own `fetch`: with a signal, ky combines it with its own (`AbortSignal.any`) and
   * every `Request` follows the combination; the runtime's fetch gets the call's signal directly instead.
   */
  #kyOptions(): KyOptions {
    const { idempotencyKey } = this;
    const body = this.#body;
    const own = this.#options.headers;
    const headers = own === undefined ? this.#client.headers : mergeHeaders(this.operation, this.#client.headers, own);
    const options: KyOptions = {
      // Each attempt is bounded by the transport (`timeoutMs`, body included, and the deadline), not by ky.
      timeout: false,
      // ky would clone every request it may retry: the engine retries (#retryOrThrow), with ky's rules.
      retry: 0,
      // The signature covers the URL, and a body must never go to another host: no redirect is followed.
      redirect: 'manual',
      fetch: this.#transport.fetch,
    };
    if (this.method !== 'GET') options.method = this.method;
    // The call's own headers may replace the Content-Type (never Authorization or Idempotency-Key: ./headers).
    if (body === undefined && idempotencyKey === undefined) {
      if (headers !== undefined) options.headers = headers;
    } else {
      options.headers = {
        ...(body === undefined ? undefined : JSON_CONTENT),
        ...headers,
        ...(idempotencyKey === undefined ? undefined : { 'Idempotency-Key': idempotencyKey }),
      };
    }
    if (body !== undefined) options.body = body;
    if (this.#client.fetch) options.signal = this.#transport.signal;
    return options;
  }

  /** The call's URL: the base, the path template filled (a raw request's path has no values for it), the query. */
  #url(): string {
    return requestUrl(this.#client.base, this.#op.path, this.#parts.path, this.#parts.query);
  }

  /**
   * After a failed attempt: sends the call once more after a wait, or throws. A clock too far from the server's is
   * corrected from the refusal's `Date` and the call sent again at once (once per call). A retry (`./retry`): an
   * idempotent method, or one with an `Idempotency-Key`; a network error, 429, 502, 503 or 504; after the backoff, or
   * what `Retry-After` says, within `maxRetryAfterMs`. The deadline bounds the wait: one that would end past it is
   * not made, and the call ends at once with the server's answer.
   */
  async #retryOrThrow(error: unknown): Promise<void> {
    if (!this.#corrected && this.#correctClock(error)) {
      this.#corrected = true;
      this.#transport.armDeadline();
      return;
    }
    const retryable = !needsIdempotencyKey(this.method) || this.idempotencyKey !== undefined;
    const signal = this.#options.signal;
    if (!retryable || this.#retries >= this.#retry.limit || (signal?.aborted && error === signal.reason)) throw error;
    const waitMs = retryWaitMs(this.#retry, this.#retries + 1, error, this.#retryAfter());
    if (waitMs === undefined || waitMs >= this.#transport.remainingMs()) throw error;
    this.#transport.armDeadline();
    await this.#transport.wait(waitMs);
    this.#retries += 1;
    this.#notify(this.#client.hooks.onRetry, () => ({
      ...this.#event(),
      attempt: this.attempt + 1,
      error: error as CardIssuingError,
    }));
  }

  /**
   * The latest response's `Retry-After` in seconds, read by the error-response chunk: loaded whenever it matters, as
   * only an error response (read by that chunk) is retried after the wait it asks for.
   */
  #retryAfter(): number | undefined {
    const headers = this.#received?.headers;
    return headers && loadedErrorResponse()?.parseRetryAfter(headers.get('retry-after'));
  }

  // ------------------------------------------------------------------------------------------- each attempt

  /**
   * Signs the attempt ky is about to send (contract section 2), where it is sent (`#observe`): every attempt is its
   * own ky request, so every one gets a fresh nonce and timestamp, signed with the client's corrected time (`./clock`).
   */
  async #sign(request: Request): Promise<void> {
    const { signer, clock } = this.#client;
    this.attempt += 1;
    // Nothing received yet: an error of this attempt must not carry an earlier attempt's status (a 503 retried).
    this.#received = undefined;
    const offsetMs = clock.offsetMs;
    // Read once: a Request's url getter serialises the URL on every read.
    const url = request.url;
    // The five published parts never include the body: it is given only when the body hash is on.
    const signed = await signer.sign({
      method: this.method,
      url,
      body: signer.bodyHash ? this.#body : undefined,
      timestamp: Math.floor(clock.now() / 1000),
    });
    request.headers.set('Authorization', signed.authorization);
    this.#signed = {
      url,
      authorization: signed.authorization,
      stringToSign: signed.stringToSign,
      offsetMs,
      at: Date.now(),
    };
    this.#notify(this.#client.hooks.onRequest, () => this.#event());
  }

  /**
   * Each attempt's response, seen where it arrives (the transport's `fetch`): not in a ky afterResponse hook, for
   * which ky clones every response (a tee of its body, a third of the SDK's own cost per call on loopback).
   */
  async #observe(input: Request | URL | string, init?: RequestInit): Promise<Response> {
    const client = this.#client;
    await this.#sign(input as Request); // ky hands its fetch a Request
    let response: Response;
    try {
      // The application's fetch gets ky's Request, which carries the call's signal; the runtime's gets it here.
      response = await (client.fetch
        ? client.fetch(input, init)
        : globalThis.fetch(input, { ...init, signal: this.#transport.signal }));
    } catch (error) {
      if (client.debug)
        this.#logAttempt(
          undefined,
          error instanceof CardIssuingError ? error.code : error instanceof Error ? error.name : 'ERROR',
        );
      throw error;
    }
    const received = {
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      headers: response.headers, // Date is read only after a skew refusal
      at: Date.now(),
    };
    this.#received = received;
    if (client.debug) this.#logAttempt(received.status);
    this.#notify(client.hooks.onResponse, () => ({
      ...this.#event(),
      url: input instanceof Request ? input.url : String(input),
      status: received.status,
      requestId: received.requestId,
      elapsedMs: received.at - this.#signed.at,
    }));
    return response;
  }

  /** The event of the current attempt, as the hooks see it. */
  #event(): RequestEvent {
    return {
      operation: this.operation,
      method: this.method,
      url: this.#signed.url,
      attempt: this.attempt,
      idempotencyKey: this.idempotencyKey,
      clockOffsetMs: this.#signed.offsetMs,
    };
  }

  /** Calls an observer with the event `make` builds (only when there is one); an observer never breaks a call. */
  #notify<E>(hook: ((event: E) => void) | undefined, make: () => E): void {
    if (!hook) return;
    try {
      hook(make());
    } catch {
      // An observer must never break a request.
    }
  }

  /** The attempt's debug line. */
  #logAttempt(status: number | undefined, code?: string): void {
    const url = this.#signed.url;
    this.#client.log.debug(
      formatAttempt({
        method: this.method,
        path: url ? new URL(url).pathname : '',
        status,
        durationMs: Date.now() - this.#signed.at,
        requestId: status === undefined ? undefined : this.#received?.requestId,
        retry: this.attempt - 1,
        clockOffsetMs: this.#signed.offsetMs,
        code,
      }),
    );
  }

  // ------------------------------------------------------------------------------------------- the body

  /** The parsed body: no content (204, or an empty body) is an empty object, as the generated clients read it. */
  async #read<T>(response: Response): Promise<T> {
    let text = '';
    if (response.status !== 204 && response.headers.get('content-length') !== '0') {
      try {
        text = await response.text();
      } catch (error) {
        throw this.#cutOff(error);
      }
    }
    this.#transport.end(false);
    return (text ? JSON.parse(text) : {}) as T;
  }

  /**
   * A body that could not be read (its connection reset or closed early, or its encoding corrupt) is a network error,
   * retried as one where the method allows; the transport's own errors (timeout, size) and the caller's abort pass
   * as they are.
   */
  #cutOff(error: unknown): unknown {
    const signal = this.#options.signal;
    if (error instanceof CardIssuingError || (signal?.aborted && error === signal.reason)) return error;
    if (!(error instanceof Error) || error.name === 'AbortError') return error;
    const cause = error.cause instanceof Error ? error.cause : error;
    return new NetworkError({
      code: 'NETWORK_ERROR',
      detail: `${this.operation}: the response body from ${this.#client.origin} could not be read: ${deepestMessage(error)}.`,
      requestId: this.#received?.requestId,
      cause,
      redact: this.#redaction(),
    });
  }

  /**
   * Refuses a call whose arguments do not match its operation's request schema, before anything is sent. A promise
   * only when there is something to wait for: the schemas' first load, or a refusal's English messages.
   */
  #validateRequest(): Promise<void> | undefined {
    const { path, query, body } = this.#parts;
    // The request schema covers { body, path, query, headers }; headers are the SDK's own, not checked here.
    const data = { path, query, body };
    if (loadedValidation()?.isValidRequest(this.operation as OperationId, data)) return undefined;
    return this.#refuseRequest(data);
  }

  /** {@link Call.#validateRequest} when the schemas are still to load or the arguments fail them (`./validation-chunk`). */
  async #refuseRequest(data: CallParts): Promise<void> {
    const checks = loadedValidation() ?? (await loadValidation());
    const refusal = await checks.requestRefusal(this.operation, data);
    if (refusal) throw refusal;
  }

  /**
   * Checks a parsed body against its operation's response schema: refused when strict, reported when 'warn'. A
   * promise only when there is something to wait for (the schemas' first load, a difference's English messages).
   */
  #validateResponse(data: unknown): Promise<void> | undefined {
    if (loadedValidation()?.isValidResponse(this.operation as OperationId, data)) return undefined;
    return this.#reportResponse(data);
  }

  /** {@link Call.#validateResponse} when the schemas are still to load or the body departs from them (`./validation-chunk`). */
  async #reportResponse(data: unknown): Promise<void> {
    const client = this.#client;
    const checks = loadedValidation() ?? (await loadValidation());
    await checks.reportResponse(data, {
      operation: this.operation,
      method: this.method,
      url: this.#signed.url,
      mode: client.responseMode === 'warn' ? 'warn' : 'strict',
      warned: client.warned,
      log: client.log,
      hooks: client.hooks,
      ...this.#responseFacts(),
      redact: this.#redaction(),
    });
  }

  // ------------------------------------------------------------------------------------------- the clock

  /**
   * After a refusal of the request's timestamp (`401 AUTH_TIMESTAMP_SKEW`), sets the client's clock offset from the
   * response's `Date` (`./clock-skew`, in the error-response chunk, loaded since it read the refusal), said once in
   * the log and the `onClockSkew` hook; false (nothing changed) for any other error, or a refusal without a readable
   * `Date`.
   */
  #correctClock(error: unknown): boolean {
    const { clock, log, hooks } = this.#client;
    const previousOffsetMs = this.#signed.offsetMs;
    const corrected = loadedErrorResponse()?.correctClock(error, {
      operation: this.operation,
      headers: this.#received?.headers,
      sentAt: this.#signed.at,
      receivedAt: this.#received?.at,
      clock,
      log,
    });
    if (!corrected) return false;
    this.#notify(hooks.onClockSkew, () => ({
      ...this.#event(),
      clockOffsetMs: previousOffsetMs,
      previousOffsetMs,
      offsetMs: corrected.offsetMs,
      serverDate: corrected.date,
    }));
    return true;
  }

  // ------------------------------------------------------------------------------------------- the errors

  /**
   * A failure as ky reports it, as the SDK's typed error (what a ky `beforeError` hook would do): an
   * error response read by `./errors/from-response` (loaded on the first one), a redirect, a timeout, an unreachable
   * server. An abort and the SDK's own errors pass unchanged.
   */
  async #typedError(error: Error): Promise<Error> {
    if (error instanceof CardIssuingError) return error;
    if (isHTTPError(error)) {
      const { response } = error;
      const { errorFromResponse, redirectError, secretFacts } = await loadErrorResponse();
      if (isRedirect(response)) {
        return redirectError(response, {
          operation: this.operation,
          url: this.#signed.url || this.#client.base,
          ...this.#responseFacts(),
          redact: this.#redaction(),
        });
      }
      return errorFromResponse({
        status: response.status,
        headers: response.headers,
        body: error.data,
        redact: this.#redaction(),
        signedString: this.#signed.stringToSign,
        secret: secretFacts(this.#client.apiSecret, this.#client.secretEncoding),
      });
    }
    if (isNetworkError(error)) {
      // The cause is the transport's error, never ky's (which holds the signed request).
      const cause = error.cause;
      const reason = cause instanceof Error ? `: ${deepestMessage(cause)}` : '';
      return new NetworkError({
        code: 'NETWORK_ERROR',
        detail: `${this.operation}: could not reach ${this.#client.origin}${reason}.`,
        cause,
        redact: this.#redaction(),
      });
    }
    return error; // an abort keeps the signal's reason, as fetch does
  }

  /**
   * Whether the error that ended the call is the caller's as it is: the caller's abort (its own reason, whenever it
   * came, as fetch does), the SDK's own errors, and what failed before any response was received.
   */
  #passesOn(error: unknown): boolean {
    const signal = this.#options.signal;
    return (signal?.aborted && error === signal.reason) || error instanceof CardIssuingError || !this.#received;
  }

  /**
   * What failed on a received body (not JSON, a validator giving way), as the caller sees it: read by the
   * error-response chunk (`./error-response`), loaded once a response has arrived.
   */
  async #bodyError(error: unknown): Promise<unknown> {
    return (await loadErrorResponse()).bodyError(error, {
      operation: this.operation,
      ...this.#responseFacts(),
      redact: this.#redaction(),
    });
  }

  /** The call's timeout, as the error a caller sees (ky's, the body's or the transport's). */
  #timeoutError(): TimeoutError {
    return new TimeoutError({
      code: 'TIMEOUT',
      detail: `${this.operation}: no complete response within ${this.timeoutMs} ms.`,
      timeoutMs: this.timeoutMs,
    });
  }

  /** The call's deadline passed: retries and their waits included. */
  #deadlineError(): DeadlineExceededError {
    return new DeadlineExceededError({
      detail: `${this.operation}: the call did not end within its deadline of ${this.deadlineMs} ms (deadlineMs).`,
      deadlineMs: this.deadlineMs,
      timeoutMs: this.timeoutMs,
      ...this.#responseFacts(),
    });
  }

  /** The status and request id of the current attempt's response, when it received one. */
  #responseFacts(): { status: number | undefined; requestId: string | undefined } {
    return { status: this.#received?.status, requestId: this.#received?.requestId };
  }

  /** What no error may show, even when a hostile server echoes it: the secret, the header and its signature. */
  #redaction(): string[] {
    const { authorization } = this.#signed;
    return [this.#client.apiSecret, authorization, authorization.split(':')[1] ?? ''];
  }
}

/** A 3xx, or the opaque redirect a browser gives for `redirect: 'manual'`. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * The message of the innermost error a transport error wraps: Node's fetch says only "fetch failed" or "terminated",
 * and the reason (`connect ECONNREFUSED 127.0.0.1:9`, `getaddrinfo ENOTFOUND …`, `other side closed`) is a cause or
 * two below it. Browsers give no cause, so their own message stays.
 */
function deepestMessage(error: Error): string {
  let deepest = error;
  for (let depth = 0; depth < 4 && deepest.cause instanceof Error && deepest.cause.message; depth++)
    deepest = deepest.cause;
  return deepest.message;
}
