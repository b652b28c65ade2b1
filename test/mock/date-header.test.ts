/**
 * Every answer of the mock carries `Date` (RFC 9110 section 6.6.1), as a real HTTP server's does: a client whose
 * clock is off reads the server's time from it after `AUTH_TIMESTAMP_SKEW` (issue 18). Through the msw handlers
 * (tests, the browser) and through the standalone node:http server, successes and problems alike.
 */
import { connect } from 'node:net';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../mock-server/src/index';
import { startMockServer, type MockServer } from '../../mock-server/src/node';
import { signRequest } from '../../sdk/src/signing/sign';

const BASE = 'http://date.test';
const mock = createMock({ baseUrl: BASE });
const { apiKey, apiSecret } = mock.fixtures().credentials[0]!;
const userPath = '/s2s/users/00000000-0000-4000-8000-000000000000';

/** A signed request, optionally with a timestamp `skewSeconds` off the wall clock. */
async function signed(url: string, skewSeconds = 0): Promise<Request> {
  const timestamp = Math.floor(Date.now() / 1000) + skewSeconds;
  const { authorization } = await signRequest({ method: 'GET', url, apiKey, apiSecret, timestamp });
  return new Request(url, { headers: { authorization } });
}

/** Asserts that `date` is an IMF-fixdate within a few seconds of now. */
function expectNow(date: string | null) {
  expect(date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
  expect(Math.abs(Date.parse(date!) - Date.now())).toBeLessThan(5_000);
}

describe('the msw handlers', () => {
  it.each([
    ['a success', () => signed(`${BASE}/__mock/fixtures`)],
    ['a 404 problem', () => signed(`${BASE}${userPath}`)],
    ['a 401 AUTH_TIMESTAMP_SKEW', () => signed(`${BASE}${userPath}`, 6 * 60)],
    ['a 401 AUTH_MISSING', async () => new Request(`${BASE}${userPath}`)],
    ['a 404 ROUTE_NOT_FOUND', () => signed(`${BASE}/s2s/health`)],
  ])('send Date on %s', async (_name, make) => {
    const response = (await getResponse(mock.handlers, await make()))!;
    expect(response).toBeDefined();
    expectNow(response.headers.get('date'));
  });
});

describe('the node:http server', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, apiKey, apiSecret });
  });
  afterAll(() => server.close());

  it('sends Date on a success and on a skew refusal, and exposes it to browser pages', async () => {
    const ok = await fetch(`${server.url}/__mock/fixtures`);
    expectNow(ok.headers.get('date'));
    const skewed = await fetch(await signed(`${server.url}${userPath}`, -6 * 60));
    expect(skewed.status).toBe(401);
    expect(((await skewed.json()) as { code: string }).code).toBe('AUTH_TIMESTAMP_SKEW');
    expectNow(skewed.headers.get('date'));
    const cors = await fetch(`${server.url}/__mock/fixtures`, { headers: { origin: 'http://localhost:5173' } });
    expect(cors.headers.get('access-control-expose-headers')).toMatch(/\bDate\b/);
  });

  it('sends Date on what Node refuses before a request exists (a bad request line)', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expectNow(/^date: (.+)$/im.exec(text)?.[1]?.trim() ?? null);
  });
});
