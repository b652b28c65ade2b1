/**
 * `Retry-After` (RFC 9110 section 10.2.3) as the SDK reads it, for {@link RateLimitError}'s `retryAfter`.
 * @module
 */

/** `Retry-After` in seconds: delay-seconds, or an HTTP date turned into seconds from now. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
