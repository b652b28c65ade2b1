/**
 * The retry policy, as ky's retry options: ky decides, waits and retries. What is retried: network errors, 429,
 * 502, 503 and 504; a method that HTTP makes idempotent always, any other (POST) only with an `Idempotency-Key`;
 * exponential backoff with jitter; `Retry-After` honoured up to a bound; never a timeout (the request may have been
 * processed).
 * @module
 */
import type { RetryOptions as KyRetryOptions } from 'ky';
import type { RetryConfig } from '../options';

/** The policy when the client and the call say nothing. */
const DEFAULT_RETRY: Required<RetryConfig> = {
  limit: 2,
  initialDelayMs: 500,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
};

const RETRY_STATUS_CODES = [429, 502, 503, 504];

/** The methods RFC 9110 (section 9.2.2) makes idempotent, in ky's spelling: retried without a key. */
const IDEMPOTENT_METHODS = new Set(['get', 'head', 'put', 'delete', 'options']);

/** Whether a call of this HTTP method needs an `Idempotency-Key` to be retried safely (a POST does). */
export function needsIdempotencyKey(method: string): boolean {
  return !IDEMPOTENT_METHODS.has(method.toLowerCase());
}

/** The client's retry settings merged with a call's; `false` on either level turns retries off. */
export function resolveRetry(
  clientRetry: RetryConfig | false | undefined,
  callRetry: RetryConfig | false | undefined,
): Required<RetryConfig> {
  if (callRetry === false || (clientRetry === false && callRetry === undefined)) return { ...DEFAULT_RETRY, limit: 0 };
  return { ...DEFAULT_RETRY, ...(clientRetry || {}), ...(callRetry ?? {}) };
}

/**
 * The SDK's retry rules for one call as ky's retry options. `retryable` is whether the call's method may be
 * retried at all: an idempotent method, or one that carries an `Idempotency-Key`.
 */
export function kyRetry(retry: Required<RetryConfig>, method: string, retryable: boolean): KyRetryOptions {
  return {
    limit: retry.limit,
    methods: retryable ? [method.toLowerCase()] : [],
    statusCodes: RETRY_STATUS_CODES,
    afterStatusCodes: RETRY_STATUS_CODES,
    maxRetryAfter: retry.maxRetryAfterMs,
    backoffLimit: retry.maxDelayMs,
    delay: (attempt) => retry.initialDelayMs * 2 ** (attempt - 1),
    // "Equal jitter": 50-100 % of the backoff, so that clients spread out but never retry at once.
    jitter: (delay) => delay * (0.5 + Math.random() / 2),
    // A timed-out request may have been processed; the caller decides.
    retryOnTimeout: false,
  };
}

/** `Retry-After` (RFC 9110 section 10.2.3) in seconds: delay-seconds, or an HTTP date turned into seconds from now. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The wait ky makes for a `Retry-After` (at most `maxRetryAfterMs`), in milliseconds; undefined without one. */
export function retryAfterMs(value: string | null, maxRetryAfterMs: number): number | undefined {
  const seconds = parseRetryAfter(value);
  return seconds === undefined ? undefined : Math.min(seconds * 1000, maxRetryAfterMs);
}
