/**
 * The clock's correction after a refusal of the request's timestamp (`401 AUTH_TIMESTAMP_SKEW`, see `./clock`): loaded
 * with the reader of error responses (`./error-response`), since only such a response brings it.
 * @module
 */
import type { ClientClock } from './clock';
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

/** What {@link correctClock} needs: the refused call's name, the refusal's `Date`, the exchange's local times. */
export interface SkewRefusal {
  operation: string;
  date: string;
  sentAt: number;
  receivedAt: number | undefined;
  clock: ClientClock;
  log: Log;
}

/**
 * Sets the client's clock offset from the refusal's `Date`, said once in the log; the new offset, or undefined
 * (nothing changed) when the `Date` does not parse.
 */
export function correctClock({ operation, date, sentAt, receivedAt, clock, log }: SkewRefusal): number | undefined {
  const offset = offsetFromDate(date, sentAt, receivedAt);
  if (offset === undefined) return undefined;
  clock.offsetMs = offset;
  log.warn(
    `card-issuing-sdk: ${operation} was refused with AUTH_TIMESTAMP_SKEW; the server's clock is ${Math.round(offset / 1000)} s from this host's (Date: ${date}). Signing with the corrected time from now on (clockOffsetMs ${offset}).`,
  );
  return offset;
}
