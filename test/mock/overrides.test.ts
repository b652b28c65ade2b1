/**
 * Overrides as MSW users expect them (issue 23, item 3): `mock.override(operationId, ...)` answers one operation of
 * one tenant instead of the domain, checked against the spec's response schema when set; `POST`, `GET` and `DELETE
 * /__mock/overrides`; every overridden answer marked in the journal; the inspector's model, the journal and `GET
 * /__mock/overrides` agree; `mock.use(...handlers)` puts raw msw handlers before the mock's own.
 */
import { HttpResponse, http, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import { createUser, getUser, listBalances } from '../../sdk/generated/sdk.gen';
import { registration } from './flows';
import {
  sdkClient,
  BASE_URL,
  expectError,
  expectProblem,
  mockHarness,
  ok,
  responseOf,
  send,
  signedClient,
} from './helpers';

const h = mockHarness();

const refusedPaths = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    return (error as { extras: { errors: { path: string }[] } }).extras.errors.map((e) => e.path);
  }
  throw new Error('accepted');
};

describe('mock.override', () => {
  it('answers the operation with the given body until removed; times: 1 answers once; the latest wins', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    const rule = h.mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'FAILED' } });
    expect(rule).toEqual({
      id: expect.stringMatching(/^override_\d+$/),
      operationId: 'getUser',
      status: 200,
      body: { ...user, kycStatus: 'FAILED' },
      remaining: null,
    });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('FAILED');
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('FAILED');
    h.mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'PASSED' }, times: 1 });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('PASSED');
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe('FAILED');
    h.mock.overrides.remove(rule.id);
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).kycStatus).toBe(user.kycStatus);
    expect(h.mock.overrides.list()).toEqual([]);
  });

  it("an error status answers the spec's problem for it, with the body's members and the headers given", async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    h.mock.override('getUser', { status: 503, headers: { 'Retry-After': '9' }, times: 1 });
    const unavailable = await getUser({ client: h.client, path: { userId: user.id } });
    expect(expectError(unavailable, 503, 'SERVICE_UNAVAILABLE').requestId).toBe(
      responseOf(unavailable).headers.get('x-request-id'),
    );
    expect(responseOf(unavailable).headers.get('retry-after')).toBe('9');
    h.mock.override('getUser', {
      status: 409,
      body: { code: 'INVALID_TRANSITION', currentStatus: 'EXPIRED' },
      times: 1,
    });
    const conflict = expectError(
      await getUser({ client: h.client, path: { userId: user.id } }),
      409,
      'INVALID_TRANSITION',
    );
    expect(conflict).toMatchObject({ currentStatus: 'EXPIRED', instance: `/s2s/users/${user.id}` });
    ok(await getUser({ client: h.client, path: { userId: user.id } }));
  });

  it('refuses a body that is not the spec’s, naming each path; unchecked: true answers it as given', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    expect(
      refusedPaths(() => h.mock.override('getUser', { status: 200, body: { ...user, kycStatus: 'MAYBE' } } as never)),
    ).toEqual(['body.body.kycStatus']);
    expect(
      refusedPaths(() => h.mock.override('listCards', { status: 200, body: { items: [{ id: 1 }] } } as never)),
    ).toEqual(expect.arrayContaining(['body.body.items.0.id', 'body.body.hasMore']));
    expect(refusedPaths(() => h.mock.override('getUser', { status: 201, body: user } as never))).toEqual([
      'body.status',
    ]);
    expect(refusedPaths(() => h.mock.override('getUser', { status: 200 } as never))).toEqual(['body.body']);
    expect(refusedPaths(() => h.mock.override('getUser', { status: 404, body: { code: 'NOPE' } } as never))).toEqual([
      'body.body.code',
    ]);
    expect(refusedPaths(() => h.mock.override('getUser', { status: 500, body: { code: 'NOT_FOUND' } }))).toEqual([
      'body.body.code',
    ]);
    expect(refusedPaths(() => h.mock.override('getUsers' as never, { status: 200, body: user } as never))).toEqual([
      'body.operationId',
    ]);
    expect(
      refusedPaths(() => h.mock.override('getUser', { status: 200, body: { n: 1n }, unchecked: true } as never)),
    ).toEqual(['body.body']);
    expect(h.mock.overrides.list()).toEqual([]);

    h.mock.override('getUser', { status: 200, body: { nonsense: true }, unchecked: true });
    const answer = await send('GET', `/s2s/users/${user.id}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ nonsense: true });
  });

  it("is the tenant's own: another tenant's requests get the domain's answer", async () => {
    h.mock.addCredentials({ apiKey: 'other', apiSecret: 'other_secret' });
    const other = signedClient({ apiKey: 'other', apiSecret: 'other_secret' });
    const user = ok(await createUser({ client: other, body: registration() }));
    h.mock.override('getUser', { status: 404 });
    ok(await getUser({ client: other, path: { userId: user.id } }));
    h.mock.tenant('other').override('listBalances', { status: 500 });
    expectError(await listBalances({ client: other, query: { userId: user.id } }), 500, 'INTERNAL_ERROR');
    expect(h.mock.overrides.list().map((o) => o.operationId)).toEqual(['getUser']);
  });

  it('reset() removes the overrides', () => {
    h.mock.override('getUser', { status: 404 });
    h.mock.reset();
    expect(h.mock.overrides.list()).toEqual([]);
  });
});

describe('/__mock/overrides', () => {
  it('POST sets (answering the override as kept), GET lists, DELETE /{id} removes one, DELETE clears', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    const posted = await send('POST', '/__mock/overrides', {
      sign: false,
      body: { operationId: 'getUser', status: 200, body: { ...user, email: 'changed@example.org' }, times: 2 },
    });
    expect(posted.status).toBe(201);
    const rule = await posted.json();
    expect(rule).toMatchObject({ operationId: 'getUser', status: 200, remaining: 2 });
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).email).toBe('changed@example.org');
    await send('POST', '/__mock/overrides', { sign: false, body: { operationId: 'listBalances', status: 503 } });
    const listed = await (await send('GET', '/__mock/overrides', { sign: false })).json();
    expect(listed.items.map((o: { id: string; remaining: number | null }) => [o.id, o.remaining])).toEqual([
      [rule.id, 1],
      [expect.stringMatching(/^override_/), null],
    ]);
    expect(await (await send('DELETE', `/__mock/overrides/${rule.id}`, { sign: false })).json()).toEqual({
      removed: rule.id,
    });
    await expectProblem(await send('DELETE', `/__mock/overrides/${rule.id}`, { sign: false }), 404, 'NOT_FOUND');
    expect(await (await send('DELETE', '/__mock/overrides', { sign: false })).json()).toEqual({ cleared: 1 });
    const refused = await expectProblem(
      await send('POST', '/__mock/overrides', {
        sign: false,
        body: { operationId: 'getUser', status: 200, body: { ...user, kycStatus: 'MAYBE' } },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(refused.errors?.map((e) => e.path)).toEqual(['body.body.kycStatus']);
  });
});

describe('the inspector, the journal and GET /__mock/overrides', () => {
  it('agree on what is overridden', async () => {
    const user = ok(await createUser({ client: h.client, body: registration() }));
    const once = h.mock.override('getUser', { status: 200, body: { ...user, firstName: 'Once' }, times: 1 });
    const always = h.mock.override('listBalances', { status: 503 });
    const listed = async () =>
      ((await (await send('GET', '/__mock/overrides', { sign: false })).json()).items as { id: string }[]).map(
        (o) => o.id,
      );
    const inspected = async () =>
      ((await (await send('GET', '/__mock/inspect', { sign: false })).json()).overrides as { id: string }[]).map(
        (o) => o.id,
      );
    expect(await listed()).toEqual([once.id, always.id]);
    expect(await inspected()).toEqual([once.id, always.id]);

    ok(await getUser({ client: h.client, path: { userId: user.id } })); // the override, used up
    ok(await getUser({ client: h.client, path: { userId: user.id } })); // the domain
    expectError(await listBalances({ client: h.client, query: { userId: user.id } }), 503, 'SERVICE_UNAVAILABLE');
    expect(await listed()).toEqual([always.id]);
    expect(await inspected()).toEqual([always.id]);

    const journal = h.mock.requests().filter((e) => e.operationId === 'getUser' || e.operationId === 'listBalances');
    expect(journal.map((e) => [e.operationId, e.override])).toEqual([
      ['listBalances', always.id],
      ['getUser', undefined],
      ['getUser', once.id],
    ]);
    expect(journal[2]!.response.body).toMatchObject({ firstName: 'Once' });
    const overHttp = await (await send('GET', '/__mock/requests?overridden=true', { sign: false })).json();
    expect(overHttp.items.map((e: { override: string }) => e.override)).toEqual([always.id, once.id]);
    expect(h.mock.requests({ overridden: once.id }).map((e) => e.seq)).toEqual([journal[2]!.seq]);
    expect(h.mock.requests({ overridden: false }).some((e) => e.override !== undefined)).toBe(false);
  });
});

describe('mock.use', () => {
  it('puts raw msw handlers before the mock’s own, newest first; one that answers nothing lets the mock answer', async () => {
    const client = sdkClient(h.mock, { retry: false });
    const user = await client.s2s.users.create(registration());
    const seen: string[] = [];
    const remove = h.mock.use(
      http.get(`${BASE_URL}/s2s/users/:userId`, ({ params }) => {
        seen.push(String(params.userId));
        return HttpResponse.json({ ...user, firstName: 'Raw' });
      }),
    );
    h.mock.use(
      http.get(`${BASE_URL}/s2s/users/:userId`, () => {
        seen.push('newest, passes');
      }),
    );
    expect((await client.s2s.users.get(user.id)).firstName).toBe('Raw');
    expect(seen).toEqual(['newest, passes', user.id]);
    remove();
    expect((await client.s2s.users.get(user.id)).firstName).toBe(user.firstName);
    // passthrough() in a handler of the mock's own URL means: let the mock answer.
    h.mock.use(http.get(`${BASE_URL}/s2s/users/:userId`, () => passthrough()));
    expect((await client.s2s.users.get(user.id)).firstName).toBe(user.firstName);
    h.mock.use(http.get(`${BASE_URL}/s2s/users/:userId`, () => HttpResponse.json({ firstName: 'Again' })));
    h.mock.resetHandlers();
    expect((await client.s2s.users.get(user.id)).firstName).toBe(user.firstName);
  });
});
