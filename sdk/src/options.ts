/**
 * What the client takes: its options ({@link CardIssuingClientOptions}), every call's ({@link RequestOptions}),
 * and the events its hooks receive.
 * @module
 */
import type { CardKeyPair } from './card-details/types';
import type { CardIssuingError } from './core/errors/base';
import type { ResponseTooLargeError, TimeoutError, ValidationError } from './core/errors/classes';
import type { PageParams } from './core/pagination';
import type { SecretEncoding } from './signing/hmac-key';

/** How the SDK retries. ky does the retrying; these are its knobs, in the SDK's words. */
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
   * The largest response body an attempt reads, in bytes (default 10 MiB; the spec bounds every list and string,
   * so a conforming body is far smaller). Past it: a {@link ResponseTooLargeError}, and the connection is released.
   */
  maxResponseBytes?: number;
  /** Retry settings, or `false` for none. Default `{ limit: 2 }`. */
  retry?: RetryConfig | false;
  /** Validate every success body against the spec's zod schema (default true). */
  validateResponses?: boolean;
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
}

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Per-attempt timeout in milliseconds for this call (request, headers and body). */
  timeoutMs?: number;
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

/** Observers the client calls; an exception thrown by one is ignored, so logging can never break a payment. */
export interface ClientHooks {
  /** Before every attempt is sent (after it was signed). */
  onRequest?: (event: RequestEvent) => void;
  /** When an attempt's response arrives, whatever its status. */
  onResponse?: (event: ResponseEvent) => void;
  /** Before a retry. */
  onRetry?: (event: RetryEvent) => void;
}

/** Per-call options of a list method: the page (`limit`, `cursor`) and the request options. */
export interface ListOptions extends RequestOptions, PageParams {}

/** Options of the card-details methods: the key pair whose public key is sent and whose private key decrypts. */
export interface CardDetailsRequestOptions extends RequestOptions {
  keyPair: CardKeyPair;
}
