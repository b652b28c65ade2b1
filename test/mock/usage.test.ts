/**
 * `createMock({ recordUsage: true })`: what a consumer's calls exercised, per operation: the statuses, the query
 * parameters and body fields sent, the response fields received per status, one redacted example per status;
 * control actions are not usage; without the option nothing is recorded and the document says so.
 */
import { describe, expect, it } from 'vitest';
import { CardIssuingError, createCardIssuingClient } from 'card-issuing-sdk';
import { createMock, createMockFetch } from 'card-issuing-mock';

const BASE_URL = 'http://usage.test';

function setUp(recordUsage: boolean) {
  const mock = createMock({ baseUrl: BASE_URL, seed: 'usage', recordUsage });
  const { credentials } = mock.fixtures();
  const client = createCardIssuingClient({
    baseUrl: BASE_URL,
    ...credentials[0]!,
    fetch: createMockFetch(mock.handlers),
    retry: false,
  });
  return { mock, client };
}

describe('recordUsage', () => {
  it('records operations, statuses, fields sent and received, and one redacted example per status', async () => {
    const { mock, client } = setUp(true);
    const user = await client.s2s.users.create({
      email: 'ada@example.org',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+447700900123',
      dateOfBirth: '1990-12-10',
      country: 'GB',
    });
    await client.s2s.users.get(user.id);
    await expect(client.s2s.users.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(CardIssuingError);
    mock.clock.advance(60); // a control action: not usage

    const usage = mock.usage();
    expect(usage).toMatchObject({ usageVersion: 1, recording: true, tenant: mock.apiKey });
    expect(usage.operations.map((o) => o.operationId)).toEqual(['createUser', 'getUser']);
    const [create, get] = usage.operations as [(typeof usage.operations)[0], (typeof usage.operations)[0]];
    expect(create).toMatchObject({ method: 'POST', path: '/s2s/users', statuses: [201] });
    expect(create.requestFields).toEqual(['country', 'dateOfBirth', 'email', 'firstName', 'lastName', 'phone']);
    expect(create.responseFields['201']).toEqual(
      expect.arrayContaining(['id', 'email', 'requiredConsents', 'requiredConsents[].id']),
    );
    expect(get).toMatchObject({ path: '/s2s/users/{userId}', statuses: [200, 404] });
    expect(get.responseFields['404']).toEqual(expect.arrayContaining(['code', 'status', 'requestId']));
    expect(get.examples.map((e) => e.response.status)).toEqual([200, 404]);
    expect(get.examples[1]).toMatchObject({
      request: { method: 'GET', target: '/s2s/users/00000000-0000-4000-8000-000000000000', headers: {} },
      response: { headers: { 'content-type': 'application/problem+json' }, body: { code: 'NOT_FOUND' } },
    });
    // Nothing of the signature or the secret in it.
    expect(JSON.stringify(usage)).not.toMatch(/HMAC-SHA256|test_secret/);
  });

  it('without the option: nothing is recorded, and the document says so', async () => {
    const { mock, client } = setUp(false);
    await client.s2s.balances.list('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    expect(mock.usage()).toMatchObject({ recording: false, operations: [] });
  });
});
