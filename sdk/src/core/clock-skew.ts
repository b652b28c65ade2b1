/**
 * The clock's correction after a refusal of the request's timestamp (`401 AUTH_TIMESTAMP_SKEW`, see `./clock`): loaded
 * with the reader of error responses (`./error-response`), since only such a response brings it.
 * @module
 */
import type { ClientClock } from './clock';
import { CardIssuingError } from './errors/base';
import type { Log } from './logger';

/**
 * The offset from the local clock to the server's, from a response's `Date` header (an IMF-fixdate, whole seconds),
 * or undefined when there is none or it does not parse. `sentAt` and `receivedAt` are the local times around the
 * exchange: the server wrote its `Date` between them, on average half a second after the whole second it names.
 */
export function offsetFromDate(
  date: string | null | undefined,
  sentAt: number,
  receivedAt: number = sentAt,
): number | undefined {
  if (!date) return undefined;
  const serverMs = Date.parse(date);
  if (Number.isNaN(serverMs)) return undefined;
  const localMid = sentAt + (receivedAt - sentAt) / 2;
  return Math.round(serverMs + 500 - localMid);
}

/** What {@link correctClock} needs: the refused call's name, the attempt's response headers, its local times. */
export interface SkewRefusal {
  operation: string;
  /** The headers of the attempt's response, undefined when none was received. */
  headers: Headers | undefined;
  sentAt: number;
  receivedAt: number | undefined;
  clock: ClientClock;
  log: Log;
}

/**
 * After a failed attempt: when it is a refusal of the request's timestamp (`401 AUTH_TIMESTAMP_SKEW`) whose response
 * has a `Date` that parses, sets the client's clock offset from it, said once in the log, and returns the new offset
 * and that `Date`; undefined (nothing changed) for any other failure.
 */
export function correctClock(
  error: unknown,
  { operation, headers, sentAt, receivedAt, clock, log }: SkewRefusal,
): { offsetMs: number; date: string } | undefined {
  const skew = error instanceof CardIssuingError && error.status === 401 && error.code === 'AUTH_TIMESTAMP_SKEW';
  const date = skew ? headers?.get('date') : undefined;
  const offset = offsetFromDate(date, sentAt, receivedAt);
  if (date == null || offset === undefined) return undefined;
  clock.offsetMs = offset;
  log.warn(
    `card-issuing-sdk: ${operation} was refused with AUTH_TIMESTAMP_SKEW; the server's clock is ${Math.round(offset / 1000)} s from this host's (Date: ${date}). Signing with the corrected time from now on (clockOffsetMs ${offset}).`,
  );
  return { offsetMs: offset, date };
}
