import { delay, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCardIssuingClient } from '../../sdk/src/client';
import { CardIssuingError } from '../../sdk/src/core/errors/base';
import { NetworkError, RateLimitError, ServerError, TimeoutError } from '../../sdk/src/core/errors/classes';
import { API_KEY, API_SECRET, problem, signedServer, uuid as u } from './support';

// Retries are ky's; these tests check that we configured it as the contract says, and that every attempt is
// signed afresh (the handler verifies each one with a NonceCache, so a replayed nonce would be a 401).
const BASE = 'https://retries.test';
const api = signedServer(BASE);
beforeAll(() => api.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => api.reset());
afterAll(() => api.server.close());

const fast = { initialDelayMs: 5, maxDelayMs: 20 };
const client = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: fast });
const failFirst = (n: number, make: () => Response) => api.respond((_, i) => (i < n ? make() : undefined));
const nonces = () => api.seen.map((r) => r.nonce);

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
    const capped = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: { ...fast, maxRetryAfterMs: 50 } });
    await capped.s2s.users.get(u(1));
    expect(api.seen).toHaveLength(2);
    // 5 s asked, 50 ms allowed: the bound is far from both, so the machine's speed cannot decide it.
    expect(api.seen[1]!.at - api.seen[0]!.at).toBeLessThan(2_000);
  });

  it('backs off exponentially: each wait at least half of initialDelayMs × 2^(retry - 1)', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.'));
    const backoff = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: { limit: 3, initialDelayMs: 100, maxDelayMs: 10_000 } });
    await expect(backoff.s2s.users.get(u(1))).rejects.toBeInstanceOf(ServerError);
    expect(api.seen).toHaveLength(4);
    const gaps = api.seen.slice(1).map((r, i) => r.at - api.seen[i]!.at);
    // Lower bounds only (jitter is 50-100 % of the backoff): 50, 100, 200 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
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

  it.each([429, 503])('honours Retry-After on %i', async (status) => {
    failFirst(1, () => problem(status, 'RATE_LIMITED', 'Slow down.', {}, { 'retry-after': '1' }));
    await client.s2s.cards.list(u(1));
    expect(api.seen).toHaveLength(2);
    // The backoff alone is 5 ms here; the second attempt waited for the server's second.
    expect(api.seen[1]!.at - api.seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

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
    const error = await client.s2s.users.get(u(1), { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    expect((error as TimeoutError).code).toBe('TIMEOUT');
    expect(api.seen).toHaveLength(1);
  });

  it('uses the client timeout when the call sets none', async () => {
    const impatient = createCardIssuingClient({ baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, timeoutMs: 30 });
    api.respond(async () => {
      await delay(2_000);
      return undefined;
    });
    await expect(impatient.s2s.users.get(u(1))).rejects.toMatchObject({ name: 'TimeoutError', timeoutMs: 30 });
  });
});

describe('abort', () => {
  it('rejects with the signal’s reason when aborted in flight', async () => {
    api.respond(async () => {
      await delay(2_000);
      return undefined;
    });
    const controller = new AbortController();
    const promise = client.s2s.users.get(u(1), { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops waiting for a retry when aborted, and sends nothing more', async () => {
    api.respond(() => problem(503, 'UNAVAILABLE', 'Try again.', {}, { 'retry-after': '5' }));
    const controller = new AbortController();
    // Abort once the first answer (a 503 with Retry-After: 5) is in, so the client is waiting to retry: not after a
    // fixed time, which a loaded machine may not have reached the server by.
    const waiting = createCardIssuingClient({
      baseUrl: BASE, apiKey: API_KEY, apiSecret: API_SECRET, retry: fast, hooks: { onResponse: () => setTimeout(() => controller.abort(), 0) },
    });
    const promise = waiting.s2s.users.get(u(1), { signal: controller.signal });
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    await delay(50);
    expect(api.seen).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    await expect(client.s2s.users.get(u(1), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(api.seen).toHaveLength(0);
  });
});
