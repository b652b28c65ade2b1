/**
 * Faults grown up (issue 23, item 4): status, code, detail, Retry-After, delay and count, matched by operationId or
 * by method and path; a fault without a code answers with its status's own code (the spec's code where the status
 * has exactly one, read from the generated `problemStatus` table; 503 SERVICE_UNAVAILABLE; else INJECTED_FAULT);
 * listed, removed and cleared in process and over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { getUser, listBalances } from '../../sdk/generated/sdk.gen';
import { problemStatus } from '../../sdk/generated/problems.gen';
import { isCardIssuingError } from 'card-issuing-sdk';
import { codeOfStatus } from '../../mock-server/src/pipeline/faults';
import { makeUser, registration } from './flows';
import { sdkClient, expectError, expectProblem, mockHarness, ok, responseOf, send } from './helpers';
import { createUser } from '../../sdk/generated/sdk.gen';

const h = mockHarness();
/** The spec's codes of a status, read from the generated table. */
const codesOf = (status: number) =>
  Object.entries(problemStatus)
    .filter(([, s]) => s === status)
    .map(([code]) => code);

describe('the code of a fault', () => {
  it("is the spec's code for a status that has exactly one, INJECTED_FAULT for a status with several or none", () => {
    for (const status of [400, 401, 403, 404, 409, 413, 414, 422, 429, 431, 500, 502, 504]) {
      const codes = codesOf(status);
      expect(codeOfStatus(status), `${status}: ${codes.join(', ') || 'no code'}`).toBe(
        codes.length === 1 ? codes[0] : 'INJECTED_FAULT',
      );
    }
    // As the spec has them today: the statuses a test fails most often with, spelled out.
    expect([422, 409, 404, 400, 401].map(codeOfStatus)).toEqual(Array(5).fill('INJECTED_FAULT'));
    expect([429, 500, 413].map(codeOfStatus)).toEqual(['RATE_LIMITED', 'INTERNAL_ERROR', 'PAYLOAD_TOO_LARGE']);
  });

  it('is SERVICE_UNAVAILABLE for 503, a status with two codes (the other, STATE_NOT_SAVED, is the state file failing)', () => {
    expect(codesOf(503)).toEqual(['SERVICE_UNAVAILABLE', 'STATE_NOT_SAVED']);
    expect(codeOfStatus(503)).toBe('SERVICE_UNAVAILABLE');
  });

  it('a 422 fault without a code says INJECTED_FAULT, not a business rule the test never broke; the SDK throws it typed', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    expect(h.mock.faults.inject({ operationId: 'getUser', status: 422 })).toMatchObject({ code: 'INJECTED_FAULT' });
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 422, 'INJECTED_FAULT');
    h.mock.faults.inject({ operationId: 'getUser', status: 409 });
    const client = sdkClient(h.mock, { retry: false });
    const error = await client.s2s.users.get(user.id).catch((e: unknown) => e);
    expect(isCardIssuingError(error, 'INJECTED_FAULT')).toBe(true);
    expect(error).toMatchObject({ name: 'ConflictError', status: 409, code: 'INJECTED_FAULT' });
  });

  it('a 503 says SERVICE_UNAVAILABLE with Retry-After 1; a 502 INJECTED_FAULT without; a 429 RATE_LIMITED with RateLimit', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    h.mock.faults.inject({ operationId: 'getUser', status: 503 });
    const unavailable = await getUser({ client: h.client, path: { userId: user.id } });
    const problem = expectError(unavailable, 503, 'SERVICE_UNAVAILABLE');
    expect(problem.detail).toMatch(/try again in 1 second/);
    expect(responseOf(unavailable).headers.get('retry-after')).toBe('1');
    expect(responseOf(unavailable).headers.get('ratelimit')).toBeNull();
    h.mock.faults.inject({ operationId: 'getUser', status: 502 });
    const bad = await getUser({ client: h.client, path: { userId: user.id } });
    expectError(bad, 502, 'INJECTED_FAULT');
    expect(responseOf(bad).headers.get('retry-after')).toBeNull();
    h.mock.faults.inject({ operationId: 'getUser', status: 429, retryAfter: 7 });
    const limited = await getUser({ client: h.client, path: { userId: user.id } });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(responseOf(limited).headers.get('ratelimit')).toBe('"default";r=0;t=7');
    ok(await getUser({ client: h.client, path: { userId: user.id } }));
  });

  it('a code alone gives its status; a code, detail and retryAfter are answered as given', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    expect(h.mock.faults.inject({ operationId: 'getUser', code: 'NOT_FOUND' })).toMatchObject({ status: 404 });
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 404, 'NOT_FOUND');
    h.mock.faults.inject({
      operationId: 'getUser',
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      detail: 'Down for maintenance.',
      retryAfter: 120,
    });
    const answer = await getUser({ client: h.client, path: { userId: user.id } });
    expect(expectError(answer, 503, 'SERVICE_UNAVAILABLE').detail).toBe('Down for maintenance.');
    expect(responseOf(answer).headers.get('retry-after')).toBe('120');
    h.mock.faults.inject({ operationId: 'getUser', status: 418, code: 'INJECTED_FAULT' });
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 418, 'INJECTED_FAULT');
  });

  it('refuses a code with another status, a code for a dropped connection, an operationId with a path, nothing to do', async () => {
    const refused = (spec: object) => {
      try {
        h.mock.faults.inject(spec as never);
      } catch (error) {
        return (error as { status: number; extras: { errors: { path: string }[] } }).extras.errors.map((e) => e.path);
      }
      throw new Error('accepted');
    };
    expect(refused({ operationId: 'getUser', status: 500, code: 'SERVICE_UNAVAILABLE' })).toEqual(['body.code']);
    expect(refused({ operationId: 'getUser', status: 0, code: 'NOT_FOUND' })).toEqual(['body.code']);
    expect(refused({ operationId: 'getUser', path: '/s2s/*', status: 500 })).toEqual(['body.operationId']);
    expect(refused({ operationId: 'getUser' })).toEqual(['body.status']);
    expect(refused({ operationId: 'noSuchOperation', status: 500 })).toEqual(['body.operationId']);
    expect(refused({ status: 500 })).toEqual(['body.path']);
    expect(refused({ operationId: 'getUser', code: 'INJECTED_FAULT' })).toEqual(['body.status']);
    expect(h.mock.faults.list()).toEqual([]);
  });
});

describe('matching', () => {
  it('by operationId: only that operation, whatever its path', async () => {
    const { user } = await makeUser(h.client, h.mock);
    h.mock.faults.inject({ operationId: 'listBalances', status: 500, times: 2 });
    ok(await getUser({ client: h.client, path: { userId: user.id } }));
    expectError(await listBalances({ client: h.client, query: { userId: user.id } }), 500, 'INTERNAL_ERROR');
    expectError(await listBalances({ client: h.client, query: { userId: user.id } }), 500, 'INTERNAL_ERROR');
    ok(await listBalances({ client: h.client, query: { userId: user.id } }));
  });
});

describe('list, remove, clear', () => {
  it('in process: list() in the order they are tried, remove(id), clear()', () => {
    const a = h.mock.faults.inject({ method: 'get', path: '/s2s/users/*', status: 503, times: 3 });
    const b = h.mock.faults.inject({ operationId: 'createUser', delayMs: 10 });
    expect(h.mock.faults.list()).toEqual([
      {
        id: a.id,
        method: 'GET',
        path: '/s2s/users/*',
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        retryAfter: 1,
        remaining: 3,
      },
      { id: b.id, operationId: 'createUser', delayMs: 10, remaining: 1 },
    ]);
    h.mock.faults.remove(a.id);
    expect(h.mock.faults.list().map((f) => f.id)).toEqual([b.id]);
    expect(() => h.mock.faults.remove(a.id)).toThrow(expect.objectContaining({ status: 404, code: 'NOT_FOUND' }));
    h.mock.faults.clear();
    expect(h.mock.faults.list()).toEqual([]);
  });

  it('over HTTP: POST answers the fault as kept, GET lists, DELETE /{id} removes one, DELETE clears', async () => {
    const posted = await send('POST', '/__mock/faults', {
      sign: false,
      body: { operationId: 'listUserApprovals', status: 503, retryAfter: 30, times: 2 },
    });
    expect(posted.status).toBe(201);
    const fault = await posted.json();
    expect(fault).toEqual({
      id: expect.stringMatching(/^fault_\d+$/),
      operationId: 'listUserApprovals',
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      retryAfter: 30,
      remaining: 2,
    });
    await send('POST', '/__mock/faults', { sign: false, body: { path: '*', status: 0 } });
    const listed = await (await send('GET', '/__mock/faults', { sign: false })).json();
    expect(listed.items.map((f: { id: string }) => f.id)).toEqual([fault.id, expect.any(String)]);
    const removed = await send('DELETE', `/__mock/faults/${fault.id}`, { sign: false });
    expect(await removed.json()).toEqual({ removed: fault.id });
    await expectProblem(await send('DELETE', `/__mock/faults/${fault.id}`, { sign: false }), 404, 'NOT_FOUND');
    expect(await (await send('DELETE', '/__mock/faults', { sign: false })).json()).toEqual({ cleared: 1 });
    expect(await (await send('GET', '/__mock/faults', { sign: false })).json()).toEqual({ items: [] });
    const refused = await expectProblem(
      await send('POST', '/__mock/faults', {
        sign: false,
        body: { operationId: 'getUser', status: 500, code: 'NOT_FOUND' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(refused.errors).toEqual([{ path: 'body.code', message: 'NOT_FOUND comes with status 404, not 500' }]);
  });

  it('reset() clears the faults', () => {
    h.mock.faults.inject({ path: '*', status: 500 });
    h.mock.reset();
    expect(h.mock.faults.list()).toEqual([]);
  });
});

describe('through the SDK', () => {
  it('retries a 503 after its Retry-After and recovers; with retries off, it sees SERVICE_UNAVAILABLE', async () => {
    const client = sdkClient(h.mock);
    const user = await client.s2s.users.create(registration());
    h.mock.faults.inject({ operationId: 'getUser', status: 503, retryAfter: 0 });
    expect((await client.s2s.users.get(user.id)).id).toBe(user.id);
    expect(h.mock.requests({ operation: 'getUser' }).map((r) => r.status)).toEqual([200, 503]);
    h.mock.faults.inject({ operationId: 'getUser', status: 503, retryAfter: 5 });
    await expect(client.s2s.users.get(user.id, { retry: false })).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
  });
});
