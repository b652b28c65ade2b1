/**
 * A server whose clock is six minutes ahead (a real node:http server that verifies signatures against its own clock
 * and sends its own `Date`): the first call is refused with AUTH_TIMESTAMP_SKEW, the client takes the offset from
 * `Date`, its one retry and every later request are signed with the corrected time, and hooks and logs see it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  createCardIssuingClient,
  type ClockSkewEvent,
  type Logger,
  type RequestEvent,
} from '../../../sdk/src/index';
import { specExample } from '../../helpers/spec';
import { startServer, type RunningServer } from './servers';

const SIX_MINUTES = 6 * 60_000;
const USER_ID = '3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
const { example: user } = specExample('GET', `/s2s/users/${USER_ID}`);
let server: RunningServer;
afterEach(() => server?.close());

const lines: string[] = [];
const logger: Logger = {
  debug: (m) => lines.push(m),
  info: (m) => lines.push(m),
  warn: (m) => lines.push(m),
  error: (m) => lines.push(m),
};

describe('a server with a clock six minutes ahead', () => {
  it('corrects the clock from Date after AUTH_TIMESTAMP_SKEW, retries once, and signs every later request with it', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: 'sk_test_clock_skew',
      clockAheadMs: SIX_MINUTES,
      answer: () => ({ status: 200, body: user }),
    });
    const skews: ClockSkewEvent[] = [];
    const requests: RequestEvent[] = [];
    lines.length = 0;
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: 'sk_test_clock_skew',
      logger,
      logLevel: 'debug',
      hooks: { onClockSkew: (e) => skews.push(e), onRequest: (e) => requests.push(e) },
    });
    expect(client.clockOffsetMs).toBe(0);

    expect(await client.s2s.users.get(USER_ID)).toEqual(user);
    expect(server.seen.map((s) => s.verdict)).toEqual(['AUTH_TIMESTAMP_SKEW', 'ok']);
    // Date has whole seconds: the offset is six minutes within a second and a half.
    expect(Math.abs(client.clockOffsetMs - SIX_MINUTES)).toBeLessThan(1500);
    expect(skews).toHaveLength(1);
    expect(skews[0]).toMatchObject({
      operation: 'getUser',
      previousOffsetMs: 0,
      offsetMs: client.clockOffsetMs,
      attempt: 1,
    });
    expect(Date.parse(skews[0]!.serverDate)).toBeGreaterThan(Date.now() + SIX_MINUTES - 5000);
    expect(requests.map((r) => [r.attempt, r.clockOffsetMs])).toEqual([
      [1, 0],
      [2, client.clockOffsetMs],
    ]);
    // The signed timestamp of the retry is the server's time.
    const timestamp = Number(server.seen[1]!.headers.authorization!.split(':')[3]);
    expect(Math.abs(timestamp * 1000 - (Date.now() + SIX_MINUTES))).toBeLessThan(5000);
    expect(lines.filter((l) => l.includes('AUTH_TIMESTAMP_SKEW') && l.includes('corrected time'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('card-issuing-sdk: GET /s2s/users/'))).toEqual([
      expect.stringMatching(/status=401 .* retry=0 clockOffset=0ms$/),
      expect.stringMatching(new RegExp(`status=200 .* retry=1 clockOffset=${client.clockOffsetMs}ms$`)),
    ]);

    // Every later request: signed with the corrected time at once, no refusal.
    await client.s2s.users.get(USER_ID);
    expect(server.seen.map((s) => s.verdict)).toEqual(['AUTH_TIMESTAMP_SKEW', 'ok', 'ok']);
    expect(skews).toHaveLength(1);
  });

  it('takes a known offset up front (option and setter), and corrects a wrong one again', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: 's3cret-skew',
      clockAheadMs: SIX_MINUTES,
      answer: () => ({ status: 200, body: user }),
    });
    const client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'k',
      apiSecret: 's3cret-skew',
      clockOffsetMs: SIX_MINUTES,
      logLevel: 'off',
    });
    await client.s2s.users.get(USER_ID);
    expect(server.seen.map((s) => s.verdict)).toEqual(['ok']);
    client.clockOffsetMs = -SIX_MINUTES; // twelve minutes off now
    await client.s2s.users.get(USER_ID);
    expect(server.seen.map((s) => s.verdict)).toEqual(['ok', 'AUTH_TIMESTAMP_SKEW', 'ok']);
    expect(Math.abs(client.clockOffsetMs - SIX_MINUTES)).toBeLessThan(1500);
    expect(() => (client.clockOffsetMs = Number.NaN)).toThrow(TypeError);
  });

  it('retries once only: a server whose Date is no help leaves the refusal as it is', async () => {
    server = await startServer({
      apiKey: 'k',
      apiSecret: 's3cret-skew',
      clockAheadMs: SIX_MINUTES,
      answer: () => ({ status: 200, body: user }),
    });
    // The server's Date is its own clock, but its verifier rejects every timestamp: the client tries once more, no more.
    const alwaysSkewed = await startServer({
      apiKey: 'k',
      apiSecret: 's3cret-skew',
      clockAheadMs: 3_600_000_000,
      answer: () => undefined,
    });
    try {
      const client = createCardIssuingClient({
        baseUrl: alwaysSkewed.url,
        apiKey: 'k',
        apiSecret: 's3cret-skew',
        logLevel: 'off',
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // A proxy that rewrites Date to this host's time: the offset read is ~0, the retry is refused as well.
          const headers = new Headers(response.headers);
          headers.set('date', new Date().toUTCString());
          return new Response(response.body, { status: response.status, headers });
        },
      });
      const error = await client.s2s.users.get(USER_ID).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as AuthenticationError).code).toBe('AUTH_TIMESTAMP_SKEW');
      expect(alwaysSkewed.seen.map((s) => s.verdict)).toEqual(['AUTH_TIMESTAMP_SKEW', 'AUTH_TIMESTAMP_SKEW']);
    } finally {
      await alwaysSkewed.close();
    }
  });
});
