/**
 * The retry policy, ky's rules (the engine runs them: ky would clone every request it may retry). What is retried:
 * network errors, 429, 502, 503 and 504; a method that HTTP makes idempotent always, any other (POST) only with an
 * `Idempotency-Key`; exponential backoff with jitter; `Retry-After` honoured up to a bound; never a timeout (the
 * request may have been processed).
 * @module
 */
import type { RetryConfig } from '../options';

/** The policy when the client and the call say nothing. */
const DEFAULT_RETRY: Required<RetryConfig> = {
  limit: 2,
  initialDelayMs: 500,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
};

const RETRY_STATUS_CODES = [429, 502, 503, 504];

/** The methods RFC 9110 (section 9.2.2) makes idempotent: retried without a key. */
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
 * How long to wait before retry number `retry` (1 for the first) after `error`, or undefined when the error is not
 * retried: ky's rules, which the engine runs itself. A network error, 429, 502, 503 or 504 is retried (never a
 * timeout: the request may have been processed); one with a `Retry-After` is retried when it says (at most
 * `maxRetryAfterMs`, no jitter), anything else after the backoff: `initialDelayMs × 2^(retry - 1)` with "equal jitter"
 * (50-100 % of it, so that clients spread out but never retry at once), at most `maxDelayMs`.
 */
export function retryWaitMs(
  retry: Required<RetryConfig>,
  retryNumber: number,
  error: unknown,
  headers: Headers | undefined,
): number | undefined {
  const status = (error as { status?: unknown }).status;
  const network = (error as { code?: unknown }).code === 'NETWORK_ERROR';
  if (!network && !(typeof status === 'number' && RETRY_STATUS_CODES.includes(status))) return undefined;
  if (!network && headers) {
    const after = retryAfterMs(headers.get('retry-after'), retry.maxRetryAfterMs);
    if (after !== undefined) return after;
  }
  const delay = retry.initialDelayMs * 2 ** (retryNumber - 1);
  return Math.min(retry.maxDelayMs, delay * (0.5 + Math.random() / 2));
}

/**
 * `Retry-After` (RFC 9110 section 10.2.3) in seconds: delay-seconds (a fraction read as ky reads it), or an HTTP date
 * turned into seconds from now. Any other number (`-5`, `+5`) is no answer: `Date.parse` would read it as a date in
 * 2001, a retry at once.
 */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  // An HTTP date names its day or month; a text without a letter is no date.
  if (!/[A-Za-z]/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The wait ky makes for a `Retry-After` (at most `maxRetryAfterMs`), in milliseconds; undefined without one. */
export function retryAfterMs(value: string | null, maxRetryAfterMs: number): number | undefined {
  const seconds = parseRetryAfter(value);
  return seconds === undefined ? undefined : Math.min(seconds * 1000, maxRetryAfterMs);
}
