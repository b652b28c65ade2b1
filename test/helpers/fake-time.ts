/**
 * Fake time for tests of waits (retry backoff, Retry-After, timeouts): vitest's fake `setTimeout`, `clearTimeout`
 * and `performance`, so a 5 s wait costs no real time and a test can say exactly when something happens. `Date`
 * stays real: request signatures are checked against the wall clock.
 *
 * The work between two waits (Web Crypto signing, msw's interception) is real asynchronous I/O, not a timer: the
 * helpers here let it run on real turns of the event loop and move fake time only when the code under test is
 * waiting on a timer it set.
 */
import { vi } from 'vitest';

/** The timer delays set since fake time began, in order (`setTimeout`'s second argument). */
export interface FakeTime {
  /** Delays of every timer set so far. */
  readonly delays: () => number[];
  /** Fake milliseconds since fake time began. */
  readonly now: () => number;
}

/**
 * Starts fake time; undo with {@link useRealTime} (e.g. in `afterEach`). `delays` lists the timers our code and its
 * libraries set; Node's own (undici's connection timers, set from `node:internal`) are faked too but not listed.
 */
export function useFakeTime(options: { date?: boolean } = {}): FakeTime {
  // `date: true` also fakes Date, for code that measures time with Date.now(); only where no signature is checked.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'performance', ...(options.date ? (['Date'] as const) : [])],
  });
  const fake = globalThis.setTimeout;
  const delays: number[] = [];
  globalThis.setTimeout = Object.assign((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
    if (!new Error().stack?.split('\n')[2]?.includes('node:internal')) delays.push(Number(ms ?? 0));
    return fake(handler as () => void, ms, ...args);
  }, fake) as typeof setTimeout;
  const start = performance.now();
  return { delays: () => [...delays], now: () => performance.now() - start };
}

/** Back to real timers (and any `vi.spyOn` of the test restored). */
export function useRealTime(): void {
  vi.restoreAllMocks();
  vi.useRealTimers();
}

/**
 * Real turns of the event loop (`setImmediate`, never faked) until `condition` holds; fails after `limitMs` of real
 * time, naming `what`, so a broken behaviour fails the test instead of hanging it.
 */
export async function until(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Drives one call on fake time: whenever the code sets a timer that `isWait` says is a wait (by default one shorter
 * than a minute: a retry's backoff or Retry-After, where the caller set its attempt timeout longer), fake time jumps
 * to its end; between jumps real I/O runs. Resolves with the call's outcome once it settles.
 */
export async function settleOnFakeTime<T>(
  time: FakeTime,
  call: Promise<T>,
  isWait: (ms: number) => boolean = (ms) => ms < 60_000,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  call.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  let jumped = 0;
  const waits = () => time.delays().filter(isWait);
  for (;;) {
    await until(() => outcome !== undefined || waits().length > jumped, 'the call to settle or to wait for a timer');
    if (outcome) return outcome;
    const ms = waits()[jumped]!;
    jumped += 1;
    await vi.advanceTimersByTimeAsync(ms);
  }
}
