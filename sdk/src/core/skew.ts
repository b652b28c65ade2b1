/**
 * A clock too far from the server's: a `401 AUTH_TIMESTAMP_SKEW` sets the client's clock offset from the response's
 * `Date` (`./clock`), said once in the log and the `onClockSkew` hook; the engine then sends the call once more.
 * @module
 */
import { type CallState, type EngineContext, notify } from './call';
import { offsetFromDate } from './clock';
import { CardIssuingError } from './errors/base';

/**
 * Corrects the client's clock after a refusal of the request's timestamp; false (nothing changed) for any other
 * error, or a refusal without a readable `Date`.
 */
export function correctClock(engine: EngineContext, call: CallState, error: unknown): boolean {
  const date = isSkew(error) ? (call.headers?.get('date') ?? null) : null;
  const offset = date === null ? undefined : offsetFromDate(date, call.sentAt, call.receivedAt);
  if (offset === undefined) return false;
  const { clock, log, hooks } = engine;
  const { operation } = call;
  const previousOffsetMs = call.signedOffsetMs;
  clock.offsetMs = offset;
  log.warn(
    `card-issuing-sdk: ${operation} was refused with AUTH_TIMESTAMP_SKEW; the server's clock is ${Math.round(offset / 1000)} s from this host's (Date: ${date}). Signing with the corrected time from now on (clockOffsetMs ${offset}).`,
  );
  notify(hooks.onClockSkew, () => ({
    operation,
    method: call.method,
    url: call.url,
    attempt: call.attempt,
    idempotencyKey: call.idempotencyKey,
    clockOffsetMs: previousOffsetMs,
    previousOffsetMs,
    offsetMs: offset,
    serverDate: date!,
  }));
  call.before = call.attempt;
  return true;
}

/** A refusal of the request's timestamp. */
function isSkew(error: unknown): boolean {
  return error instanceof CardIssuingError && error.status === 401 && error.code === 'AUTH_TIMESTAMP_SKEW';
}
