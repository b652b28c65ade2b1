/**
 * The SDK's limits against real node:http servers (issue 26): with the defaults no call lasts longer than its deadline
 * whatever a server says (retries and `Retry-After` waits included), and no redirect is followed, so no body is sent
 * twice and nothing goes to another origin. Waits run on fake time or with a short `deadlineMs`: no test passes by
 * timing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DeadlineExceededError,
  RateLimitError,
  RedirectError,
  ServerError,
  TimeoutError,
  createCardIssuingClient,
} from '../../../sdk/src/index';
import { settleOnFakeTime, until, useFakeTime, useRealTime } from '../../helpers/fake-time';
import { problem, startServer, type RunningServer } from './servers';

const SECRET = 'sk_test_limits_5d1c';
const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  useRealTime();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function server(answer: Parameters<typeof startServer>[0]['answer']): Promise<RunningServer> {
  const started = await startServer({ apiKey: 'k', apiSecret: SECRET, answer });
  running.push(started);
  return started;
}

/** A raw node:http server (for what `startServer` cannot do: stall, stay silent), closed after the test. */
async function rawServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const raw: Server = createServer(handler);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  running.push({
    close: async () => {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    },
  });
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
}

const newUser = {
  email: 'ada@example.org',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
};

describe('the deadline: no call lasts longer, whatever a server says', () => {
  it.each([
    [503, ServerError],
    [429, RateLimitError],
  ] as const)(
    'a %i with Retry-After: 1000000000 ends the call at once with its typed error (defaults; nothing waited for)',
    async (status, Kind) => {
      const api = await server(() => ({
        ...problem(status, status === 429 ? 'RATE_LIMITED' : 'INTERNAL_ERROR', 'Come back in 31 years.'),
        headers: { 'content-type': 'application/problem+json', 'retry-after': '1000000000' },
      }));
      const client = createCardIssuingClient({ baseUrl: api.url, apiKey: 'k', apiSecret: SECRET });
      const time = useFakeTime();
      // No fake time is let pass: the call must settle without waiting on any timer.
      const outcome = await settleOnFakeTime(time, client.s2s.users.get(USER_ID), () => false);
      expect(outcome.ok).toBe(false);
      const error = (outcome as { error: unknown }).error;
      expect(error).toBeInstanceOf(Kind);
      expect(error).toMatchObject({ status });
      expect(api.seen).toHaveLength(1);
      expect(time.now()).toBe(0);
    },
  );

  it("a retry whose wait would end past the deadline is not made: the server's last answer, at once (fake time)", async () => {
    const api = await server(() => problem(503, 'INTERNAL_ERROR', 'Busy.'));
    const client = createCardIssuingClient({
      baseUrl: api.url,
      apiKey: 'k',
      apiSecret: SECRET,
      retry: { limit: 10, initialDelayMs: 4_000, maxDelayMs: 4_000 },
      deadlineMs: 10_000,
    });
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999); // every backoff 4 s
    const time = useFakeTime();
    const outcome = await settleOnFakeTime(time, client.s2s.users.get(USER_ID), (ms) => ms > 3_900 && ms <= 4_000);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(ServerError);
    // Attempts at 0, 4 and 8 s of fake time; a third wait would end at 12 s, past the deadline at 10 s.
    expect(api.seen).toHaveLength(3);
    expect(time.now()).toBeLessThan(10_000);
  });

  it('an attempt still running at the deadline ends with a DeadlineExceededError (fake time)', async () => {
    let requests = 0;
    const flakyUrl = await rawServer((req, res) => {
      req.resume();
      if (requests++ > 0) return; // the retry gets no answer
      res.writeHead(503, { 'content-type': 'application/problem+json', 'x-request-id': 'req_first' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Busy', status: 503, code: 'INTERNAL_ERROR' }));
    });
    const client = createCardIssuingClient({
      baseUrl: flakyUrl,
      apiKey: 'k',
      apiSecret: SECRET,
      retry: { limit: 10, initialDelayMs: 4_000, maxDelayMs: 4_000 },
      deadlineMs: 10_000,
    });
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const time = useFakeTime();
    // The 4 s backoff, then the second attempt's timer: what is left of the deadline (6 s), not timeoutMs (30 s).
    const outcome = await settleOnFakeTime(
      time,
      client.s2s.users.get(USER_ID),
      (ms) => (ms > 3_900 && ms <= 4_000) || (ms > 5_900 && ms < 6_100),
    );
    const error = (outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toBeInstanceOf(TimeoutError); // code that handles timeouts handles it
    expect(error).toMatchObject({ code: 'DEADLINE_EXCEEDED', deadlineMs: 10_000 });
    expect((error as Error).message).toContain('deadline of 10000 ms');
    expect(requests).toBe(2);
    // The attempt that ran out received nothing: the first attempt's 503 is not this failure's status.
    expect(error).toMatchObject({ status: undefined, requestId: undefined });
    expect((error as Error).message).not.toMatch(/503|req_first/);
  });

  it("the deadline during a body: the status and request id are the last attempt's own (fake time)", async () => {
    let requests = 0;
    const stallingUrl = await rawServer((req, res) => {
      req.resume();
      if (requests++ === 0) {
        res.writeHead(503, { 'content-type': 'application/problem+json', 'x-request-id': 'req_first' });
        res.end(JSON.stringify({ type: 'about:blank', title: 'Busy', status: 503, code: 'INTERNAL_ERROR' }));
        return;
      }
      // The retry's headers arrive, then its body stops half-way.
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_second' });
      res.write('{"id":');
    });
    const client = createCardIssuingClient({
      baseUrl: stallingUrl,
      apiKey: 'k',
      apiSecret: SECRET,
      retry: { limit: 10, initialDelayMs: 4_000, maxDelayMs: 4_000 },
      deadlineMs: 10_000,
    });
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    const time = useFakeTime();
    const call = client.s2s.users.get(USER_ID).catch((e: unknown) => e);
    const timers = (low: number, high: number) => time.delays().filter((ms) => ms > low && ms <= high).length;
    await until(() => timers(3_900, 4_000) > 0, 'the 4 s backoff');
    await vi.advanceTimersByTimeAsync(4_000);
    // The retry's attempt timer (what is left of the deadline, 6 s), then, once its headers have arrived, its body's.
    await until(() => timers(5_900, 6_100) > 1, "the retry's body timer");
    await vi.advanceTimersByTimeAsync(6_100);
    const error = await call;
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({ code: 'DEADLINE_EXCEEDED', status: 200, requestId: 'req_second' });
    expect(requests).toBe(2);
  });

  it('a server that never answers: a short deadlineMs ends the first attempt with a DeadlineExceededError', async () => {
    const silentUrl = await rawServer(() => undefined);
    const client = createCardIssuingClient({
      baseUrl: silentUrl,
      apiKey: 'k',
      apiSecret: SECRET,
    });
    const error = await client.s2s.users.get(USER_ID, { deadlineMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toMatchObject({ code: 'DEADLINE_EXCEEDED', deadlineMs: 50, status: undefined });
  });
});

describe('redirects: never followed, no body sent twice', () => {
  it.each([307, 308])(
    'a %i to another origin is a RedirectError naming the location; the other origin receives nothing',
    async (status) => {
      const other = await server(() => ({ status: 201, body: { stolen: true } }));
      const api = await server(() => ({ status, headers: { location: `${other.url}/s2s/users?from=redirect` } }));
      const client = createCardIssuingClient({ baseUrl: api.url, apiKey: 'k', apiSecret: SECRET });
      const error = await client.s2s.users.create(newUser).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({
        code: 'REDIRECT_NOT_FOLLOWED',
        status,
        location: `${other.url}/s2s/users?from=redirect`,
      });
      expect((error as Error).message).toContain(`${other.url}/s2s/users?from=redirect`);
      expect(other.seen).toEqual([]);
      expect(api.seen).toHaveLength(1); // the body went once, to the API
      expect(JSON.parse(api.seen[0]!.body)).toMatchObject({ email: newUser.email });
    },
  );

  it('a redirect on the same origin is not followed either (the signature covers the URL): a relative Location, named absolute', async () => {
    const api = await server(() => ({ status: 302, headers: { location: '/v2/s2s/users' } }));
    const client = createCardIssuingClient({ baseUrl: api.url, apiKey: 'k', apiSecret: SECRET });
    const error = await client.s2s.users.get(USER_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 302, location: `${api.url}/v2/s2s/users` });
    expect(api.seen).toHaveLength(1);
  });
});
