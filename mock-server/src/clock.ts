/**
 * The virtual clock. It governs domain time only (validFrom/validTo, OTP expiry, order completion, reapproval
 * expiry); request signatures are checked against the wall clock, so moving this clock never breaks signing.
 *
 * Two modes, both plain data so that a tenant's snapshot holds its clock:
 * - ticking (default): wall clock + an offset; `advance` adds to the offset;
 * - frozen (`createMock({ clock: { now } })`): stands still at an instant; only `advance` and `set` move it.
 * @module
 */

/** The serialisable state of a virtual clock. */
export interface ClockState {
  /** Epoch milliseconds the clock stands at, or null when it ticks with the wall clock. */
  frozenAt: number | null;
  /** Milliseconds added to the wall clock while ticking. */
  offsetMs: number;
}

let pinnedWall: number | undefined;

/** The wall clock in epoch ms: `Date.now()`, except while {@link atWallClock} replays a change from the write-ahead log. */
export function wallNow(): number {
  return pinnedWall ?? Date.now();
}

/**
 * Runs `fn` with the wall clock read as `ms`: a logged change is replayed at the instant it first ran, so a
 * ticking virtual clock (wall + offset) gives the same instants again.
 */
export function atWallClock<T>(ms: number, fn: () => T): T {
  const before = pinnedWall;
  pinnedWall = ms;
  try {
    return fn();
  } finally {
    pinnedWall = before;
  }
}

/** The initial state: frozen at `now` when given, else ticking with no offset. */
export function initialClock(now?: string | Date): ClockState {
  if (now === undefined) return { frozenAt: null, offsetMs: 0 };
  const ms = typeof now === 'string' ? Date.parse(now) : now.getTime();
  if (Number.isNaN(ms)) throw new TypeError(`clock.now is not a valid instant: ${String(now)}`);
  return { frozenAt: ms, offsetMs: 0 };
}

/** The clock's current instant in epoch milliseconds. */
export function clockNow(clock: ClockState): number {
  return clock.frozenAt ?? wallNow() + clock.offsetMs;
}

/** Moves the clock forward by `seconds` (never backwards: due transitions have already run). */
export function advanceClock(clock: ClockState, seconds: number): void {
  const ms = Math.round(seconds * 1000);
  if (clock.frozenAt !== null) clock.frozenAt += ms;
  else clock.offsetMs += ms;
}

/** Moves the clock to `instantMs`; a frozen clock stays frozen there, a ticking one keeps ticking from it. */
export function setClock(clock: ClockState, instantMs: number): void {
  if (clock.frozenAt !== null) clock.frozenAt = instantMs;
  else clock.offsetMs = instantMs - wallNow();
}

/** RFC 3339 UTC text of an epoch-milliseconds instant. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
