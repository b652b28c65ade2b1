/**
 * The request pipeline every operation shares: signature rejections with their AUTH_ codes (and the mock's
 * stringToSign hint), validation naming each bad field, malformed JSON, Idempotency-Key replay and reuse,
 * X-Request-Id, 404 for unknown ids and for other tenants' ids, unknown routes, injected faults and latency.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBusinessUser,
  createUser,
  getApproval,
  getUser,
  listBalances,
  listCards,
  listDepositVerifications,
} from '../../sdk/generated/sdk.gen';
import { buildStringToSign } from '../../sdk/src/signing/string-to-sign';
import { signRequest } from '../../sdk/src/signing/sign';
import { makeApproval, makeBusinessUser, makeUser, registration } from './flows';
import { BASE_URL, DAY, expectError, expectProblem, mockHarness, ok, send, signedClient, responseOf } from './helpers';

const h = mockHarness();
const userPath = '/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';

describe('signature (contract section 2)', () => {
  it('accepts a request signed by the generated client; every response carries a distinct X-Request-Id', async () => {
    const a = await createUser({ client: h.client, body: registration() });
    const b = await getUser({ client: h.client, path: { userId: ok(a).id } });
    expect(responseOf(a).headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/);
    expect(responseOf(b).headers.get('x-request-id')).not.toBe(responseOf(a).headers.get('x-request-id'));
  });

  it.each([
    ['AUTH_MISSING', undefined],
    ['AUTH_MALFORMED', 'Bearer abc'],
    ['AUTH_MALFORMED', 'HMAC-SHA256 test_key:c2ln:nothex:1700000000'],
  ])('%s for Authorization %s', async (code, authorization) => {
    const problem = await expectProblem(
      await send('GET', userPath, { sign: false, ...(authorization ? { authorization } : {}) }),
      401,
      code,
    );
    expect(problem.stringToSign).toBeUndefined();
  });

  it('AUTH_UNKNOWN_KEY for a key the mock does not know', async () => {
    await expectProblem(
      await send('GET', userPath, { credentials: { apiKey: 'nobody', apiSecret: 'x' } }),
      401,
      'AUTH_UNKNOWN_KEY',
    );
  });

  it('AUTH_TIMESTAMP_SKEW more than 300 s from the wall clock, either way', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectProblem(await send('GET', userPath, { timestamp: now - 400 }), 401, 'AUTH_TIMESTAMP_SKEW');
    await expectProblem(await send('GET', userPath, { timestamp: now + 400 }), 401, 'AUTH_TIMESTAMP_SKEW');
  });

  it('AUTH_NONCE_REUSED for a nonce seen within the window', async () => {
    const nonce = 'ab'.repeat(16);
    const first = await send('GET', userPath, { nonce });
    expect(first.status).toBe(404);
    await expectProblem(await send('GET', userPath, { nonce }), 401, 'AUTH_NONCE_REUSED');
  });

  it('AUTH_SIGNATURE_MISMATCH with the stringToSign the mock expected, so the differing part shows', async () => {
    const url = `${BASE_URL}/s2s/users`;
    const body = JSON.stringify(registration());
    const signed = await signRequest({ method: 'POST', url, body, apiKey: 'test_key', apiSecret: 'test_secret' });
    // Sent to another URL than the one signed: the URL is one of the five signed parts.
    const sentUrl = `${url}?Changed=1`;
    const response = await fetch(sentUrl, {
      method: 'POST',
      body,
      headers: { Authorization: signed.authorization, 'Content-Type': 'application/json' },
    });
    const problem = await expectProblem(response, 401, 'AUTH_SIGNATURE_MISMATCH');
    const expected = await buildStringToSign({
      method: 'POST',
      url: sentUrl,
      apiKey: 'test_key',
      timestamp: signed.timestamp,
      nonce: signed.nonce,
    });
    expect(problem.stringToSign).toBe(expected);
    expect(problem.stringToSign).toBe(signed.stringToSign.replace('/s2s/users', '/s2s/users?changed=1'));
  });

  it('a wrong secret is AUTH_SIGNATURE_MISMATCH; no problem body ever holds the secret or the Authorization header', async () => {
    const signed = await signRequest({
      method: 'GET',
      url: `${BASE_URL}${userPath}`,
      apiKey: 'test_key',
      apiSecret: 'wrong_secret',
    });
    const response = await fetch(`${BASE_URL}${userPath}`, { headers: { Authorization: signed.authorization } });
    const text = await response.clone().text();
    await expectProblem(response, 401, 'AUTH_SIGNATURE_MISMATCH');
    expect(text).not.toContain('test_secret');
    expect(text).not.toContain('wrong_secret');
    expect(text).not.toContain(signed.authorization.split(':')[1]!);
  });

  it('advancing the virtual clock by days never breaks signing (timestamps are checked against the wall clock)', async () => {
    h.mock.clock.advance(400 * DAY);
    ok(await createUser({ client: h.client, body: registration() }));
  });

  it("verifySignatures: false takes unsigned requests; the tenant is the header's api key when known, else the default", async () => {
    const mock = h.start({
      verifySignatures: false,
      credentials: [
        { apiKey: 'test_key', apiSecret: 'test_secret' },
        { apiKey: 'other', apiSecret: 'other_secret' },
      ],
    });
    const created = await send('POST', '/s2s/users', { sign: false, body: registration() });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await send('GET', `/s2s/users/${id}`, { sign: false })).status).toBe(200);
    expect(
      (
        await send('GET', `/s2s/users/${id}`, {
          sign: false,
          authorization: `HMAC-SHA256 other:x:${'a'.repeat(32)}:1`,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await send('GET', `/s2s/users/${id}`, {
          sign: false,
          authorization: `HMAC-SHA256 unknown:x:${'a'.repeat(32)}:1`,
        })
      ).status,
    ).toBe(200);
    expect(mock.tenant('other').fixtures().corporates[0]!.corporateUuid).not.toBe(
      mock.fixtures().corporates[0]!.corporateUuid,
    );
  });
});

describe('validation with the generated schemas (400 VALIDATION_FAILED, one entry per bad field)', () => {
  it('names each bad body field, unknown fields included', async () => {
    const problem = await expectProblem(
      await send('POST', '/s2s/users', {
        body: { ...registration(), email: 'not-an-email', lastName: undefined, phone: '12345', nickname: 'Ada' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(problem.errors?.map((e) => e.path).sort()).toEqual([
      'body.email',
      'body.lastName',
      'body.nickname',
      'body.phone',
    ]);
    expect(problem.errors!.every((e) => e.message.length > 0)).toBe(true);
  });

  it('names nested fields, path parameters, query parameters and headers', async () => {
    const body = {
      userUuid: 'nope',
      budget: { amount: -5, currency: 'eur' },
      validFrom: 'yesterday',
      validTo: '2026-12-31T00:00:00Z',
    };
    const approval = await expectProblem(
      await send('POST', '/corporates/corporates/not-a-uuid/approvals', {
        body,
        headers: { 'Idempotency-Key': 'has space' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(approval.errors?.map((e) => e.path).sort()).toEqual([
      'body.budget.amount',
      'body.budget.currency',
      'body.userUuid',
      'body.validFrom',
      'headers.Idempotency-Key',
      'path.corporateUuid',
    ]);
    const list = await expectProblem(await send('GET', '/s2s/balances'), 400, 'VALIDATION_FAILED');
    expect(list.errors).toEqual([{ path: 'query.userId', message: expect.any(String) }]);
    const type = await expectProblem(
      await send('GET', '/s2s/deposits/2e8f4b6a-7c1d-4a3e-9f5b-6d0c8a2e4b17/usdc'),
      400,
      'VALIDATION_FAILED',
    );
    expect(type.errors?.[0]?.path).toBe('path.type');
  });

  it('a missing body is body; a body that is not JSON is 400 MALFORMED_JSON', async () => {
    const missing = await expectProblem(await send('POST', '/s2s/users'), 400, 'VALIDATION_FAILED');
    expect(missing.errors).toEqual([{ path: 'body', message: 'A JSON body is required' }]);
    await expectProblem(await send('POST', '/s2s/users', { body: '{"email": ' }), 400, 'MALFORMED_JSON');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body (Idempotent-Replayed: true); nothing runs twice', async () => {
    const body = registration();
    const headers = { 'Idempotency-Key': 'create-ada' };
    const first = await createUser({ client: h.client, body, headers });
    const second = await createUser({ client: h.client, body, headers });
    expect(responseOf(second).status).toBe(201);
    expect(ok(second)).toEqual(ok(first));
    expect(responseOf(second).headers.get('idempotent-replayed')).toBe('true');
    expect(responseOf(first).headers.get('idempotent-replayed')).toBeNull();
    expect(responseOf(second).headers.get('x-request-id')).toBe(responseOf(first).headers.get('x-request-id'));
    expect(ok(await listBalances({ client: h.client, query: { userId: ok(first).id } })).items).toHaveLength(1);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const headers = { 'Idempotency-Key': 'k-1' };
    ok(await createUser({ client: h.client, body: registration(), headers }));
    expectError(await createUser({ client: h.client, body: registration(), headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('replays an error response too, and keeps keys per tenant and for 24 hours', async () => {
    const body = { name: 'Grace', lastName: 'Hopper', email: 'grace@corp.example', phone: '+12025550143' };
    ok(await createBusinessUser({ client: h.client, body }));
    const headers = { 'Idempotency-Key': 'dup' };
    const first = expectError(
      await createBusinessUser({ client: h.client, body, headers }),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
    const replayed = await createBusinessUser({ client: h.client, body, headers });
    expect(responseOf(replayed).headers.get('idempotent-replayed')).toBe('true');
    expect(expectError(replayed, 409, 'EMAIL_ALREADY_REGISTERED').requestId).toBe(first.requestId);

    h.mock.addCredentials({ apiKey: 'second', apiSecret: 'second_secret' });
    const other = signedClient({ apiKey: 'second', apiSecret: 'second_secret' });
    expect(responseOf(await createBusinessUser({ client: other, body, headers })).status).toBe(201);

    h.mock.clock.advance(DAY + 1);
    const expired = await createBusinessUser({ client: h.client, body, headers });
    expect(responseOf(expired).headers.get('idempotent-replayed')).toBeNull();
    expect(responseOf(expired).status).toBe(409);
  });

  it('a request that failed before it ran (an injected 503) is not remembered: the retry with the same key runs', async () => {
    h.mock.faults.inject({ method: 'POST', path: '/s2s/users', status: 503 });
    const body = registration();
    const headers = { 'Idempotency-Key': 'retry-me' };
    expectError(await createUser({ client: h.client, body, headers }), 503, 'SERVICE_UNAVAILABLE');
    const retried = await createUser({ client: h.client, body, headers });
    expect(responseOf(retried).status).toBe(201);
    expect(responseOf(retried).headers.get('idempotent-replayed')).toBeNull();
  });
});

describe("404 for unknown ids and for other tenants' ids", () => {
  it("a tenant never sees another tenant's users, cards, verifications or approvals", async () => {
    const { user } = await makeUser(h.client, h.mock);
    const businessUser = await makeBusinessUser(h.client, h.mock, true);
    const approval = await makeApproval(h.client, h.mock, businessUser.userUuid);
    h.mock.addCredentials({ apiKey: 'tenant_b', apiSecret: 'secret_b' });
    const b = signedClient({ apiKey: 'tenant_b', apiSecret: 'secret_b' });
    expectError(await getUser({ client: b, path: { userId: user.id } }), 404, 'NOT_FOUND');
    expectError(await listCards({ client: b, query: { userId: user.id } }), 404, 'NOT_FOUND');
    expectError(await listCards({ client: b, query: { userId: businessUser.userUuid } }), 404, 'NOT_FOUND');
    expectError(
      await getApproval({
        client: b,
        path: { corporateUuid: approval.corporateUuid, approvalUuid: approval.approvalUuid },
      }),
      404,
      'NOT_FOUND',
    );
    const bCorporate = h.mock.tenant('tenant_b').fixtures().corporates[0]!.corporateUuid;
    expectError(
      await getApproval({ client: b, path: { corporateUuid: bCorporate, approvalUuid: approval.approvalUuid } }),
      404,
      'NOT_FOUND',
    );
    expect(ok(await listDepositVerifications({ client: b })).items).toEqual([]);
    expect(ok(await getUser({ client: h.client, path: { userId: user.id } })).id).toBe(user.id);
  });

  it('an approval under another corporate of the same tenant is 404', async () => {
    const businessUser = await makeBusinessUser(h.client, h.mock);
    const approval = await makeApproval(h.client, h.mock, businessUser.userUuid);
    const otherCorporate = h.mock.fixtures().corporates[1]!.corporateUuid;
    expectError(
      await getApproval({
        client: h.client,
        path: { corporateUuid: otherCorporate, approvalUuid: approval.approvalUuid },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/s2s/nothing'],
    ['DELETE', '/s2s/users'],
    ['GET', '/s2s'],
    ['PUT', '/app/deposits/types'],
    ['GET', '/corporates/a/b/c/d/e'],
    ['POST', '/__mock/nothing'],
  ])('%s %s is 404 ROUTE_NOT_FOUND problem+json', async (method, path) => {
    const problem = await expectProblem(await send(method, path, { sign: false }), 404, 'ROUTE_NOT_FOUND');
    expect(problem.instance).toBe(path);
  });

  it('an unknown /__mock/ route points to the control API, not the spec (which has no control routes)', async () => {
    const problem = await expectProblem(await send('POST', '/__mock/nothing', { sign: false }), 404, 'ROUTE_NOT_FOUND');
    expect(problem.detail).toBe('No control route POST /__mock/nothing; see docs/control-api.md for the routes.');
    const api = await expectProblem(await send('GET', '/s2s/nothing', { sign: false }), 404, 'ROUTE_NOT_FOUND');
    expect(api.detail).toBe('No operation GET /s2s/nothing; see spec/openapi.yaml for the routes.');
  });
});

describe('faults and latency', () => {
  afterEach(() => void vi.useRealTimers());

  it('fails the next `times` matching requests over HTTP control, then answers normally', async () => {
    const { user } = await makeUser(h.client, h.mock);
    const injected = await send('POST', '/__mock/faults', {
      sign: false,
      body: { method: 'GET', path: '/s2s/users/{userId}', status: 503, times: 2 },
    });
    expect(injected.status).toBe(201);
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 503, 'SERVICE_UNAVAILABLE');
    expectError(await getUser({ client: h.client, path: { userId: user.id } }), 503, 'SERVICE_UNAVAILABLE');
    ok(await getUser({ client: h.client, path: { userId: user.id } }));
  });

  it('a 429 fault says RATE_LIMITED with Retry-After; other methods and paths are untouched', async () => {
    h.mock.faults.inject({ path: '/s2s/balances', status: 429 });
    const { user } = await makeUser(h.client, h.mock).catch(() => ({ user: undefined }));
    expect(user).toBeUndefined(); // makeUser lists balances last: that request hit the fault
    const created = ok(await createUser({ client: h.client, body: registration() }));
    ok(await listBalances({ client: h.client, query: { userId: created.id } }));
    h.mock.faults.inject({ path: '/s2s/*', status: 429 });
    const limited = await listBalances({ client: h.client, query: { userId: created.id } });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(responseOf(limited).headers.get('retry-after')).toBe('1');
  });

  it('status 0 is a network error; clear() removes faults; bad fault bodies are 400', async () => {
    h.mock.faults.inject({ path: '*', status: 0 });
    await expect(send('GET', userPath)).rejects.toThrow();
    h.mock.faults.inject({ path: '*', status: 500, times: 5 });
    h.mock.faults.clear();
    expect((await send('GET', userPath)).status).toBe(404);
    const bad = await expectProblem(
      await send('POST', '/__mock/faults', { sign: false, body: { path: '/s2s/users', status: 200, times: 0 } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(bad.errors?.map((e) => e.path).sort()).toEqual(['body.status', 'body.times']);
  });

  it('a delay-only fault and latencyMs hold the response back by that many timer milliseconds', async () => {
    h.start({ latencyMs: 50 });
    h.mock.faults.inject({ path: userPath, delayMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    // Wait (on real ticks) until the handler has set its timer: signing and interception take a few turns.
    const timerSet = async () => {
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    };
    let settled = false;
    const pending = send('GET', userPath).then((r) => {
      settled = true;
      return r;
    });
    await timerSet();
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // the fault's delay is over; the latency starts
    await timerSet();
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(404);
  });

  it("an override's delayMs, then latencyMs, hold its answer back by that many timer milliseconds", async () => {
    h.start({ latencyMs: 50 });
    h.mock.override('getUser', { status: 502, delayMs: 1000 });
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const timerSet = async () => {
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    };
    let settled = false;
    const pending = send('GET', userPath).then((r) => {
      settled = true;
      return r;
    });
    await timerSet();
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1); // the override's delay is over; the latency starts
    await timerSet();
    await vi.advanceTimersByTimeAsync(49);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(502);
  });
});
