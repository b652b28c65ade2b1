import { delay, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CardIssuingError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  createCardIssuingClient,
  type CardIssuingClientOptions,
} from 'card-issuing-sdk';
import { settleOnFakeTime, until, useFakeTime, useRealTime } from '../helpers/fake-time';
import { API_KEY, API_SECRET, problem, signedServer, uuid as u } from './support';

// Retries are ky's; these tests check that we configured it as the contract says, and that every attempt is
// signed afresh (the handler verifies each one with a NonceCache, so a replayed nonce would be a 401).
const BASE = 'https://retries.test';
const api = signedServer(BASE);
beforeAll(() => api.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  api.reset();
  useRealTime();
});
afterAll(() => api.server.close());

const fast = { initialDelayMs: 5, maxDelayMs: 20 };
const client = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: fast });
const failFirst = (n: number, make: () => Response) => api.respond((_, i) => (i < n ? make() : undefined));
const nonces = () => api.seen.map((r) => r.nonce);
/** Fake milliseconds between the server's sight of each attempt and the next (support records `performance.now()`). */
const gaps = () => api.seen.slice(1).map((r, i) => r.at - api.seen[i]!.at);
/**
 * A client for tests on fake time: its attempt timeout (10 min) lies beyond settleOnFakeTime's horizon, so only the
 * retry waits are jumped over.
 */
/**
 * The waits to jump over on fake time: these tests' retry waits, all under 10 s. Not the attempt timer (10 min), nor
 * ky's bound on reading an error body (10 s while ky's own timeout is off: the SDK times each attempt itself).
 */
const isRetryWait = (ms: number) => ms < 10_000;
const onFakeTime = (options: Partial<CardIssuingClientOptions> = {}) =>
  createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, timeoutMs: 600_000, ...options });

describe('retries', () => {
  it('re-signs every retry: a new nonce each attempt, each accepted by a verifier that refuses replays', async () => {
    failFirst(2, () => problem(503, 'UNAVAILABLE', 'Try again.'));
    await client.s2s.users.get(u(1));
    expect(api.seen).toHaveLength(3);
    expect(api.seen.every((r) => r.signatureOk)).toBe(true);
    expect(new Set(nonces()).size).toBe(3);
  });

  it('retries an idempotent POST after a 503: same Idempotency-Key, new nonce', async () => {
    failFirst(1, () => problem(503, 'UNAVAILABLE', 'Try again.'));
    const card = await client.s2s.cards.create(u(1), { configId: u(3), visualId: u(4) });
    expect(card.object).toBe('draft');
    expect(api.seen).toHaveLength(2);
    const [first, second] = api.seen;
    expect(first!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers.get('idempotency-key')).toBe(first!.headers.get('idempotency-key'));
    expect(second!.nonce).not.toBe(first!.nonce);
    expect(second!.body).toBe(first!.body);
    expect(api.seen.every((r) => r.signatureOk)).toBe(true);
  });

  it('waits at most maxRetryAfterMs, whatever Retry-After asks', async () => {
    failFirst(1, () => problem(503, 'UNAVAILABLE', 'Try again.', {}, { 'retry-after': '5' }));
    const time = useFakeTime();
    const capped = onFakeTime({ retry: { ...fast, maxRetryAfterMs: 50 } });
    expect(await settleOnFakeTime(time, capped.s2s.users.get(u(1)), isRetryWait)).toMatchObject({ ok: true });
    // 5 s asked, 50 ms allowed: the retry went out 50 ms after the 503, on fake time.
    expect(gaps()).toEqual([50]);
  });

  it('backs off exponentially with equal jitter: each wait between half and all of initialDelayMs × 2^(retry - 1)', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
    const retry = { limit: 3, initialDelayMs: 100, maxDelayMs: 10_000 };
    for (const [random, expected] of [
      [0, [50, 100, 200]],
      [0.999_999, [100, 200, 400]],
    ] as const) {
      api.reset();
      api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
      const time = useFakeTime();
      vi.spyOn(Math, 'random').mockReturnValue(random);
      const outcome = await settleOnFakeTime(time, onFakeTime({ retry }).s2s.users.get(u(1)), isRetryWait);
      expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(ServerError);
      expect(api.seen).toHaveLength(4);
      expect(gaps().map(Math.round)).toEqual(expected);
      useRealTime();
    }
  });

  it('caps each wait at maxDelayMs', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
    const time = useFakeTime();
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const outcome = await settleOnFakeTime(
      time,
      onFakeTime({ retry: { limit: 3, initialDelayMs: 100, maxDelayMs: 150 } }).s2s.users.get(u(1)),
      isRetryWait,
    );
    expect(outcome.ok).toBe(false);
    expect(gaps().map(Math.round)).toEqual([100, 150, 150]);
  });

  it('makes a new Idempotency-Key per call, not per client', async () => {
    await client.s2s.cards.chargeDraft(u(5));
    await client.s2s.cards.chargeDraft(u(5));
    const [a, b] = api.seen.map((r) => r.headers.get('idempotency-key'));
    expect(a).not.toBe(b);
  });

  it.each([502, 503, 504, 429])('retries a GET on %i', async (status) => {
    failFirst(1, () => problem(status, status === 429 ? 'RATE_LIMITED' : 'UPSTREAM', 'Try again.'));
    await client.s2s.balances.list(u(1));
    expect(api.seen).toHaveLength(2);
    expect(api.seen.every((r) => r.signatureOk)).toBe(true);
  });

  it.each([429, 503])(
    'honours Retry-After on %i: the retry goes out when the server said, not before',
    async (status) => {
      failFirst(1, () => problem(status, 'RATE_LIMITED', 'Slow down.', {}, { 'retry-after': '1' }));
      const time = useFakeTime();
      expect(await settleOnFakeTime(time, onFakeTime({ retry: fast }).s2s.cards.list(u(1)), isRetryWait)).toMatchObject(
        {
          ok: true,
        },
      );
      expect(api.seen).toHaveLength(2);
      // The backoff alone is 5 ms here; the second attempt waited for the server's second, on fake time.
      expect(gaps()).toEqual([1000]);
    },
  );

  it('does not retry a POST without an idempotency key', async () => {
    failFirst(1, () => problem(503, 'UNAVAILABLE', 'Try again.'));
    const error = await client.s2s.cards.chargeDraft(u(5), { idempotencyKey: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(1);
  });

  it('does not retry a POST without a key on a network error either, but retries a GET', async () => {
    api.respond(() => HttpResponse.error());
    await expect(client.s2s.cards.activate(u(5), { idempotencyKey: false })).rejects.toBeInstanceOf(NetworkError);
    expect(api.seen).toHaveLength(1);
    api.reset();
    api.respond(() => HttpResponse.error());
    await expect(client.s2s.cards.list(u(1))).rejects.toBeInstanceOf(NetworkError);
    expect(api.seen).toHaveLength(3);
    expect(new Set(nonces()).size).toBe(3);
  });

  it('recovers from a network error on a retried call', async () => {
    failFirst(1, () => HttpResponse.error());
    await expect(client.s2s.users.get(u(1))).resolves.toMatchObject({ id: expect.any(String) });
    expect(api.seen).toHaveLength(2);
  });

  it.each([500, 400, 401, 404, 409, 422])('does not retry %i', async (status) => {
    api.respond(() => problem(status, 'NOPE', 'No.'));
    const error = await client.s2s.users.get(u(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardIssuingError);
    expect((error as CardIssuingError).status).toBe(status);
    expect(api.seen).toHaveLength(1);
  });

  it.each([
    ['1.5', 1.5],
    ['-5', undefined],
    ['+5', undefined],
  ])('reads a Retry-After of %j as %j seconds, never as a date in 2001 (a retry at once)', async (header, seconds) => {
    api.respond(() => problem(429, 'RATE_LIMITED', 'Slow down.', {}, { 'retry-after': header }));
    const error = await client.s2s.users.get(u(1), { retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(seconds);
  });

  it('stops after the limit and throws the last error', async () => {
    api.respond(() => problem(429, 'RATE_LIMITED', 'Slow down.', {}, { 'retry-after': '0' }));
    const error = await client.s2s.users.get(u(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(0);
    expect(api.seen).toHaveLength(3); // 1 + the default limit of 2
    api.reset();
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
    await expect(client.s2s.users.get(u(1), { retry: { limit: 4 } })).rejects.toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(5);
  });

  it('turns retries off with retry: false, per call or per client, and back on per call', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
    await expect(client.s2s.users.get(u(1), { retry: false })).rejects.toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(1);
    const noRetry = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: false });
    await expect(noRetry.s2s.users.get(u(1))).rejects.toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(2);
    await expect(noRetry.s2s.users.get(u(1), { retry: { limit: 1, ...fast } })).rejects.toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(4);
  });

  it('does not retry a timeout (the request may have been processed)', async () => {
    api.respond(async () => {
      await delay(2_000);
      return undefined;
    });
    useFakeTime();
    const call = client.s2s.users.get(u(1), { timeoutMs: 50 }).catch((e: unknown) => e);
    await until(() => api.seen.length === 1, 'the request to reach the server');
    await vi.advanceTimersByTimeAsync(50);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    expect((error as TimeoutError).code).toBe('TIMEOUT');
    // The server answers long after; no second attempt was ever scheduled.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.seen).toHaveLength(1);
  });

  it('uses the client timeout when the call sets none, to the millisecond', async () => {
    const impatient = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, timeoutMs: 30 });
    api.respond(async () => {
      await delay(2_000);
      return undefined;
    });
    useFakeTime();
    let settled = false;
    const call = impatient.s2s.users.get(u(1)).finally(() => (settled = true));
    call.catch(() => undefined);
    await until(() => api.seen.length === 1, 'the request to reach the server');
    await vi.advanceTimersByTimeAsync(29);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError', timeoutMs: 30 });
  });
});

describe('abort', () => {
  it('rejects with the signal’s reason when aborted in flight', async () => {
    const controller = new AbortController();
    // The server aborts the call once the request is in, and never answers: only the abort can end the call.
    api.respond(async () => {
      controller.abort();
      return new Promise<Response>(() => undefined);
    });
    await expect(client.s2s.users.get(u(1), { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(api.seen).toHaveLength(1);
  });

  it('stops waiting for a retry when aborted, and sends nothing more', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.', {}, { 'retry-after': '5' }));
    const controller = new AbortController();
    const retried = vi.fn();
    const time = useFakeTime();
    const waiting = onFakeTime({ retry: fast, hooks: { onRetry: retried } });
    const call = waiting.s2s.users.get(u(1), { signal: controller.signal });
    call.catch(() => undefined);
    // Abort while the client waits out the 5 s Retry-After: once that wait's timer is set.
    await until(() => time.delays().includes(5_000), 'the client to wait for Retry-After');
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    // Past the end of the wait it was in: no retry fired, nothing more reached the server.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(retried).not.toHaveBeenCalled();
    expect(api.seen).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    await expect(client.s2s.users.get(u(1), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(api.seen).toHaveLength(0);
  });
});
