/**
 * docs/mock.md's blocks on faults, overrides and `mock.use`, and the lead section's component test of a list that
 * fails with 503 and Retry-After and then recovers, run as written: each block below is the page's block (indented
 * where it runs inside a test), and the last tests check that the page still says the same. The mock is the one the
 * one-line vitest setup gives (`card-issuing-mock/vitest`), answering the global fetch while this file runs.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it, test } from 'vitest';
import { createCardIssuingClient } from 'card-issuing-sdk';
import { mock } from '../../mock-server/src/vitest';
import { codeBlockOf, ownBlock } from '../helpers/markdown';
import { repoPath } from '../helpers/spec';

const client = createCardIssuingClient({
  baseUrl: 'https://api.example.test',
  apiKey: 'test_key',
  apiSecret: 'test_secret',
});
const newUser = (options: { retry?: false } = {}) =>
  client.s2s.users.create(
    {
      email: `ada.${Math.random().toString(36).slice(2)}@example.org`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    },
    options,
  );

// ---- component-503 block start
test('the top-ups list fails with 503 and Retry-After, then recovers', async () => {
  const { corporateUuid } = mock.fixtures().corporates[0]!;
  mock.faults.inject({ operationId: 'listTopUps', status: 503, retryAfter: 30 }); // the next call only
  await expect(client.corporates.topUps.list(corporateUuid, { retry: false })).rejects.toMatchObject({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
  });
  expect(mock.requests({ status: 503 })[0]!.response.headers['retry-after']).toBe('30');
  expect((await client.corporates.topUps.list(corporateUuid)).items).toEqual([]);
});
// ---- component-503 block end

test('faults', async () => {
  // ---- faults block start
  mock.faults.inject({ operationId: 'listTopUps', status: 503, retryAfter: 30 }); // 503 SERVICE_UNAVAILABLE
  mock.faults.inject({ method: 'POST', path: '/s2s/users', status: 0 }); // the connection drops
  mock.faults.inject({ operationId: 'getUser', code: 'NOT_FOUND', times: 3 }); // 404 NOT_FOUND, three times
  const slow = mock.faults.inject({ operationId: 'getUser', delayMs: 2000 }); // a slow answer
  expect(mock.faults.list()).toHaveLength(4); // the faults waiting, in the order they are tried
  mock.faults.remove(slow.id); // one; mock.faults.clear() removes all
  // ---- faults block end
  await expect(newUser({ retry: false })).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
  expect(mock.faults.list().map((f) => [f.operationId, f.code])).toEqual([
    ['listTopUps', 'SERVICE_UNAVAILABLE'],
    ['getUser', 'NOT_FOUND'],
  ]);
  mock.faults.clear();
});

test('overrides', async () => {
  const userId = (await newUser()).id;
  // ---- overrides block start
  const user = await client.s2s.users.get(userId);
  mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'FAILED' } }); // every getUser, until removed
  mock.override('listCards', { status: 200, body: { items: [], hasMore: false, nextCursor: null }, times: 1 });
  mock.override('getUser', { status: 503, headers: { 'Retry-After': '5' } }); // the spec's problem for 503
  mock.override('getUser', { status: 409, body: { code: 'INVALID_TRANSITION', currentStatus: 'EXPIRED' } });
  // ---- overrides block end
  // The latest override of getUser answers; the journal marks it.
  await expect(client.s2s.users.get(userId)).rejects.toMatchObject({ status: 409, code: 'INVALID_TRANSITION' });
  const [latest] = mock.overrides.list().slice(-1);
  expect(mock.requests({ overridden: true })[0]).toMatchObject({ operationId: 'getUser', override: latest!.id });
  mock.overrides.remove(latest!.id);
  mock.overrides.remove(mock.overrides.list().at(-1)!.id);
  expect((await client.s2s.users.get(userId)).kycStatus).toBe('FAILED');
  expect((await client.s2s.cards.list(userId)).items).toEqual([]);
  mock.overrides.clear();
});

test('mock.use', async () => {
  const userId = (await newUser()).id;
  // ---- use block start
  const stop = mock.use(
    http.get('https://api.example.test/s2s/users/:userId', () => {
      // A proxy's HTML error page: no override can say that (they answer JSON).
      return new HttpResponse('<h1>502 Bad Gateway</h1>', { status: 502, headers: { 'Content-Type': 'text/html' } });
    }),
  );
  await expect(client.s2s.users.get(userId, { retry: false })).rejects.toMatchObject({ status: 502 });
  stop(); // or mock.resetHandlers() in afterEach
  // ---- use block end
  expect((await client.s2s.users.get(userId)).firstName).toBe('Ada');
});

describe('docs/mock.md', () => {
  const dedent = (text: string | undefined) => text?.replace(/^ {2}/gm, '');
  it.each([
    ['A list that fails with 503', 'component-503'],
    ['Faults', 'faults'],
    ['Overrides', 'overrides'],
    ['Raw msw handlers', 'use'],
  ])('shows the block above in its section "%s"', (heading, marker) => {
    const here = ownBlock(import.meta.url, marker);
    expect(here).toBeDefined();
    const block = codeBlockOf(repoPath('docs/mock.md'), heading);
    expect(block).toBe(marker === 'component-503' ? here : dedent(here));
  });
});
