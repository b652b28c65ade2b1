/**
 * The client's view of the server's clock. Signatures carry a timestamp the server accepts within 300 s of its own
 * clock (`AUTH_TIMESTAMP_SKEW` past that); a host whose clock is off would be refused forever. After such a refusal
 * the client reads the server's time from the response's `Date` header, keeps the offset, and signs with
 * `Date.now() + offset` from then on.
 * @module
 */

/** The client's clock: the local time plus an offset to the server's. */
export interface ClientClock {
  /** Milliseconds to add to the local clock to get the server's (positive: the server is ahead). */
  offsetMs: number;
  /** The corrected time, in milliseconds since the epoch. */
  now(): number;
}

/** A clock starting at `offsetMs` (default 0). */
export function createClientClock(offsetMs = 0): ClientClock {
  checkOffset(offsetMs);
  let offset = offsetMs;
  return {
    get offsetMs() {
      return offset;
    },
    set offsetMs(value: number) {
      checkOffset(value);
      offset = value;
    },
    now: () => Date.now() + offset,
  };
}

function checkOffset(value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError('clockOffsetMs must be a finite number of milliseconds.');
}
