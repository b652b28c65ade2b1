/**
 * What every operation shares (the spec's conventions): problem+json for every refusal, 400 VALIDATION_FAILED
 * naming each bad field (path, query, body), 400 MALFORMED_JSON, 404 ROUTE_NOT_FOUND for what is no operation,
 * X-Request-Id on every answer, idempotent replays of mutating POSTs, and tenants that never see each other.
 */
import { describe, expect, it } from './support/test';
import { registeredUser } from './support/actors';
import { UNKNOWN_ID, expectProblem, expectRefusal, newBusinessUser, useContract } from './support/harness';
import { newRegistration } from 'card-issuing-mock/control';

const contract = useContract(import.meta.url);

describe('validation errors name the fields', () => {
  it('a body that breaks the schema is 400 VALIDATION_FAILED with one entry per bad field', async () => {
    const response = await contract.send({
      method: 'POST',
      path: '/s2s/users',
      body: { email: 'not-an-email', firstName: 'Ada', phone: '0044', dateOfBirth: '1990-13-45', country: 'gb' },
    });
    const problem = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(problem.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(['body.email', 'body.lastName', 'body.phone', 'body.dateOfBirth', 'body.country']),
    );
    expect(problem.errors?.map((e) => e.path)).not.toContain('body.firstName');
  });

  it('a field the schema does not have is refused, named', async () => {
    const problem = expectProblem(
      await contract.send({ method: 'POST', path: '/s2s/users', body: { ...newRegistration(), admin: true } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(problem.errors?.map((e) => e.path)).toContain('body.admin');
  });

  it('a body that is not JSON is 400 MALFORMED_JSON', async () => {
    expectProblem(
      await contract.send({ method: 'POST', path: '/s2s/users', body: '{"email": "ada@example.org",' }),
      400,
      'MALFORMED_JSON',
    );
  });

  it('a path parameter that is not a UUID is 400 naming path.userId; a missing query parameter is 400 naming query.userId', async () => {
    const path = expectProblem(
      await contract.send({ method: 'GET', path: '/s2s/users/not-a-uuid' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(path.errors?.map((e) => e.path)).toContain('path.userId');
    const query = expectProblem(
      await contract.send({ method: 'GET', path: '/s2s/balances' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(query.errors?.map((e) => e.path)).toContain('query.userId');
    const app = expectProblem(
      await contract.send({ method: 'GET', path: '/app/deposits/types', query: { userUuid: '42' } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(app.errors?.map((e) => e.path)).toContain('query.userUuid');
  });
});

describe('routes', () => {
  it('a path that is no operation is 404 ROUTE_NOT_FOUND problem+json, in every area', async () => {
    for (const path of ['/s2s/nothing-here', '/app/deposits', '/corporates/nothing/here/at/all/really']) {
      expectProblem(await contract.send({ method: 'GET', path }), 404, 'ROUTE_NOT_FOUND');
    }
  });

  it('every answer carries X-Request-Id, successes included', async () => {
    const { requestId, status } = await contract.client.s2s.users.create(newRegistration()).withResponse();
    expect(status).toBe(201);
    expect(requestId).toBeTruthy();
  });
});

describe('idempotency: the same key and request replay the first answer', () => {
  it('the same Idempotency-Key and body replays the first 201 (same user, Idempotent-Replayed: true)', async () => {
    const body = newRegistration();
    const key = crypto.randomUUID();
    const first = await contract.send({
      method: 'POST',
      path: '/s2s/users',
      body,
      headers: { 'idempotency-key': key },
    });
    const replay = await contract.send({
      method: 'POST',
      path: '/s2s/users',
      body,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect((replay.body as { id: string }).id).toBe((first.body as { id: string }).id);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).not.toBe('true');
  });

  it("the SDK's idempotencyKey makes a repeated call apply once: the same business user, not a 409", async () => {
    const body = newBusinessUser();
    const first = await contract.client.corporates.users.create(body, {
      idempotencyKey: `contract-${crypto.randomUUID()}`,
    });
    const key = `contract-${crypto.randomUUID()}`;
    const a = await contract.client.corporates.users.create(
      { ...body, email: `again.${body.email}` },
      { idempotencyKey: key },
    );
    const b = await contract.client.corporates.users.create(
      { ...body, email: `again.${body.email}` },
      { idempotencyKey: key },
    );
    expect(b.userUuid).toBe(a.userUuid);
    expect(a.userUuid).not.toBe(first.userUuid);
  });

  it('a POST without a body replays too (signing a consent twice under one key)', async () => {
    const user = await registeredUser(contract);
    const consent = user.requiredConsents[0]!;
    const key = crypto.randomUUID();
    const path = `/s2s/users/${user.id}/consents/${consent.id}/sign`;
    const first = await contract.send({ method: 'POST', path, headers: { 'idempotency-key': key } });
    const replay = await contract.send({ method: 'POST', path, headers: { 'idempotency-key': key } });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('idempotency: a key reused with another body is refused', () => {
  it('the same Idempotency-Key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = crypto.randomUUID();
    expect(
      (
        await contract.send({
          method: 'POST',
          path: '/corporates/users',
          body: newBusinessUser(),
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(201);
    expectProblem(
      await contract.send({
        method: 'POST',
        path: '/corporates/users',
        body: newBusinessUser(),
        headers: { 'idempotency-key': key },
      }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });
});

describe('tenants', () => {
  it('a resource of another api key is 404 NOT_FOUND, as if it did not exist', async (context) => {
    const other = await contract.isolated(context);
    const user = await registeredUser(other);
    expect((await other.client.s2s.users.get(user.id)).id).toBe(user.id);
    await expectRefusal(contract.client.s2s.users.get(user.id), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(contract.client.s2s.balances.list(user.id), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(contract.client.app.deposits.listTypes(user.id), { status: 404, code: 'NOT_FOUND' });
    await expectRefusal(contract.client.s2s.consents.sign(user.id, user.requiredConsents[0]?.id ?? UNKNOWN_ID), {
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});
