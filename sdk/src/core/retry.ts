/**
 * The retry policy, ky's rules (the engine runs them: ky would clone every request it may retry). What is retried:
 * network errors, 429, 502, 503 and 504; a method that HTTP makes idempotent always, any other (POST) only with an
 * `Idempotency-Key`; exponential backoff with jitter; `Retry-After` honoured up to a bound (read by `./retry-after`,
 * which comes with the error response); never a timeout (the request may have been processed).
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
  retryAfterSeconds: number | undefined,
): number | undefined {
  const status = (error as { status?: unknown }).status;
  const network = (error as { code?: unknown }).code === 'NETWORK_ERROR';
  if (!network && !(typeof status === 'number' && RETRY_STATUS_CODES.includes(status))) return undefined;
  if (!network && retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, retry.maxRetryAfterMs);
  const delay = retry.initialDelayMs * 2 ** (retryNumber - 1);
  return Math.min(retry.maxDelayMs, delay * (0.5 + Math.random() / 2));
}
