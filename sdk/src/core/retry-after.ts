/**
 * `Retry-After`, read where an error response is read: by the problem reader (`RateLimitError.retryAfter`) and,
 * through the engine's error-response chunk, for the wait before a retry. Never on a page before its first error.
 * @module
 */

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
