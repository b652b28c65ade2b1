/**
 * The engine's error-response chunk (`./lazy`), loaded with its first error response: the reader of the response,
 * and what only such a response needs: its `Retry-After` for a retry, the clock correction after a refusal of the
 * request's timestamp. A page whose calls succeed never loads it.
 * @module
 */
export { errorFromResponse } from './errors/from-response';
export { parseRetryAfter } from './retry-after';
export { correctClock } from './clock-skew';
