/**
 * What the client takes: its options ({@link CardIssuingClientOptions}), every call's ({@link RequestOptions}),
 * and the events its hooks receive.
 * @module
 */
import type { CardKeyPair } from './card-details/types';
import type { CardIssuingError } from './core/errors/base';
import type {
  DeadlineExceededError,
  ResponseTooLargeError,
  TimeoutError,
  ValidationError,
} from './core/errors/classes';
import type { HeadersInit } from './core/headers';
import type { Logger, LogLevel } from './core/logger';
import type { PageParams } from './core/pagination';
import type { SecretEncoding } from './signing/hmac-key';

/** How the SDK retries: ky's rules, run by the client's engine; these are their knobs, in the SDK's words. */
export interface RetryConfig {
  /** Retries after the first attempt (default 2). */
  limit?: number;
  /** Delay before the first retry; doubles every retry, with jitter (50-100 % of it). Default 500 ms. */
  initialDelayMs?: number;
  /** Upper bound of a backoff delay. Default 5000 ms. */
  maxDelayMs?: number;
  /** Upper bound of a server's `Retry-After` the SDK waits for. Default 60000 ms. */
  maxRetryAfterMs?: number;
}

/** What {@link createCardIssuingClient} takes. */
export interface CardIssuingClientOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:4010` for the mock server. */
  baseUrl: string;
  /** The api key, sent in every request's `Authorization` header. */
  apiKey: string;
  /** The api secret: signs requests; never sent, logged or put into an error. */
  apiSecret: string;
  /**
   * Sign the body too: `+ base64(SHA-256(body))` after the five published parts (contract section 2). Off by
   * default, as the service publishes the scheme; turn it on only for a server that requires it (the mock with
   * `bodyHash` / `--sign-body`).
   */
  bodyHash?: boolean;
  /**
   * How the api secret becomes the HMAC key: its UTF-8 bytes (`'utf8'`, the default, as the mock does by default)
   * or the bytes it encodes in base64 (`'base64'`, for a service that base64-decodes the secret to sign).
   */
  secretEncoding?: SecretEncoding;
  /**
   * Per-attempt timeout in milliseconds (default 30000), for the whole attempt: the request, the response headers
   * and the whole body. A timeout is a {@link TimeoutError} and is not retried.
   */
  timeoutMs?: number;
  /**
   * The longest a call may last, in milliseconds: every attempt, every retry and every wait before one (a server's
   * `Retry-After` included). Default 60000, or `timeoutMs` when that is longer. Past it: a
   * {@link DeadlineExceededError} (a `TimeoutError`); a `Retry-After` that would end past it is not waited for, and
   * the call ends at once with the server's answer.
   */
  deadlineMs?: number;
  /**
   * The largest response body an attempt reads, in bytes (default 10 MiB; the spec bounds every list and string,
   * so a conforming body is far smaller). Past it: a {@link ResponseTooLargeError}, and the connection is released.
   */
  maxResponseBytes?: number;
  /** Retry settings, or `false` for none. Default `{ limit: 2 }`. */
  retry?: RetryConfig | false;
  /**
   * What to do with a success body that departs from the spec's schema:
   * - `'strict'` (the default; `true` means the same): throw a {@link ResponseValidationError};
   * - `'warn'`: return the body as the server sent it, and report each difference (operation, path, what the spec
   *   says) once per operation and path, through the logger (`warn`) and the `onValidationWarning` hook, so that
   *   an app keeps working while its team learns what the service changed;
   * - `false`: do not check (zod is then never loaded for responses).
   */
  validateResponses?: ResponseValidation;
  /**
   * Check every call's arguments against the spec's zod schema before sending (default true); a bad argument is a
   * {@link ValidationError} and nothing is sent. With this and `validateResponses` off, zod is never loaded.
   */
  validateRequests?: boolean;
  /**
   * A fetch implementation (default `globalThis.fetch`). It must honour the request's abort signal, as every
   * standard fetch does: the SDK aborts it to end a response body that outlives `timeoutMs`.
   */
  fetch?: (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
  /** Observers of requests, responses and retries (logging, metrics). They never see the `Authorization` header. */
  hooks?: ClientHooks;
  /**
   * Headers sent with every request (a `traceparent`, a tenant header of the app's own). They can never replace
   * what the SDK owns: `Authorization` (the signature) and `Idempotency-Key` (the `idempotencyKey` option); naming
   * either is a TypeError.
   */
  headers?: HeadersInit;
  /**
   * Where the SDK logs: anything with `debug`, `info`, `warn` and `error` (console, pino, winston). Default: the
   * console. No line ever holds the secret, an `Authorization` header, card data or a JWE.
   */
  logger?: Logger;
  /**
   * How much it logs (default `'warn'`, or the environment variable `CARD_ISSUING_LOG`): `'debug'` logs one line per
   * attempt (method, path, status, duration, request id, retry number, clock offset); `'off'` nothing.
   */
  logLevel?: LogLevel;
  /**
   * Milliseconds to add to this host's clock to get the service's (default 0). The client corrects it by itself
   * after a `401 AUTH_TIMESTAMP_SKEW` from the response's `Date`; set it when the offset is known up front.
   */
  clockOffsetMs?: number;
  /**
   * Allow an api secret in a browser. By default creating a client with a secret in a web page (or worker) throws:
   * a secret in a page is readable by everyone who opens it. Pass `true` where that is acceptable: a page against
   * the local mock, a demo, an internal tool whose users may hold the secret anyway.
   */
  dangerouslyAllowBrowser?: boolean;
}

/** The `validateResponses` option: `'strict'` (or `true`), `'warn'`, or `false`. */
export type ResponseValidation = 'strict' | 'warn' | boolean;

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Per-attempt timeout in milliseconds for this call (request, headers and body). */
  timeoutMs?: number;
  /** The longest this call may last, retries and their waits included (see the client's `deadlineMs`). */
  deadlineMs?: number;
  /** Retry settings for this call, or `false` for none. */
  retry?: RetryConfig | false;
  /**
   * The `Idempotency-Key` of a POST. By default the SDK makes one (a random UUID) for every POST while retries
   * are on, so that a retried POST is never applied twice; pass your own to make a call idempotent across
   * process restarts, or `false` to send none (the POST is then never retried).
   */
  idempotencyKey?: string | false;
  /** Aborts the call (and any retry wait). The promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Headers of this call, over the client's (`undefined` or `null` removes a client header for this call). Never
   * `Authorization` or `Idempotency-Key`.
   */
  headers?: HeadersInit;
}

/** What every request and response event carries. Never the `Authorization` header. */
export interface RequestEvent {
  /** The operation, as the spec's `operationId` (e.g. `createCard`). */
  operation: string;
  method: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  idempotencyKey: string | undefined;
  /** The offset to the server's clock this attempt was signed with, in milliseconds (see `clockOffsetMs`). */
  clockOffsetMs: number;
}

/** A response arrived (any status). */
export interface ResponseEvent extends RequestEvent {
  status: number;
  requestId: string | undefined;
  /** Milliseconds from signing this attempt to its response headers. */
  elapsedMs: number;
}

/** An attempt failed and the SDK is about to retry (`attempt` is the number of the coming attempt). */
export interface RetryEvent extends RequestEvent {
  error: CardIssuingError;
}

/** The client corrected its clock from the server's `Date` after a `401 AUTH_TIMESTAMP_SKEW`, and retries once. */
export interface ClockSkewEvent extends RequestEvent {
  /** The offset the refused attempt was signed with. */
  previousOffsetMs: number;
  /** The offset from now on (server time minus local time, in milliseconds). */
  offsetMs: number;
  /** The server's `Date` header it was read from. */
  serverDate: string;
}

/** A response body departs from the spec and `validateResponses` is `'warn'`: reported once per operation and path. */
export interface ValidationWarningEvent {
  /** The operation, as the spec's `operationId`. */
  operation: string;
  method: string;
  url: string;
  /** Where the body departs, array indices as `[]` (`items[].status`); empty for the body itself. */
  path: string;
  /** What the spec says there, e.g. `Invalid input: expected string, received undefined`. */
  message: string;
  status: number | undefined;
  requestId: string | undefined;
}

/** Observers the client calls; an exception thrown by one is ignored, so logging can never break a payment. */
export interface ClientHooks {
  /** Before every attempt is sent (after it was signed). */
  onRequest?: (event: RequestEvent) => void;
  /** When an attempt's response arrives, whatever its status. */
  onResponse?: (event: ResponseEvent) => void;
  /** Before a retry. */
  onRetry?: (event: RetryEvent) => void;
  /** When the client corrects its clock after `AUTH_TIMESTAMP_SKEW` (before its one retry). */
  onClockSkew?: (event: ClockSkewEvent) => void;
  /** With `validateResponses: 'warn'`, for each new difference between a response and the spec. */
  onValidationWarning?: (event: ValidationWarningEvent) => void;
}

/** A request to an endpoint the spec does not name, for `client.request()`. */
export interface RawRequest {
  /** The HTTP method, e.g. `'POST'`. */
  method: string;
  /** The path under the base URL, e.g. `/s2s/health` (percent-encode what needs it). */
  path: string;
  /** Query parameters; `undefined` members are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body. */
  body?: unknown;
}

/** Per-call options of a list method: the page (`limit`, `cursor`) and the request options. */
export interface ListOptions extends RequestOptions, PageParams {}

/** Options of the card-details methods: the key pair whose public key is sent and whose private key decrypts. */
export interface CardDetailsRequestOptions extends RequestOptions {
  keyPair: CardKeyPair;
}
