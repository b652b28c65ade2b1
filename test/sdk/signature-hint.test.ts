import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMock } from '../../mock-server/src/index';
import { AuthenticationError, createCardIssuingClient } from '../../sdk/src/index';

// The mock puts the stringToSign it expected into a signature mismatch; the SDK compares it with what it signed
// and says what is wrong, in words an integrator can act on.
const BASE = 'http://hint.test';
const mock = createMock({ baseUrl: BASE });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const userId = '00000000-0000-4000-8000-000000000000';

async function refusal(apiSecret: string): Promise<AuthenticationError> {
  const client = createCardIssuingClient({ baseUrl: BASE, apiKey: 'test_key', apiSecret, retry: false });
  const error = await client.s2s.users.get(userId).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AuthenticationError);
  return error as AuthenticationError;
}

describe('a signature mismatch explains itself', () => {
  it('says the secret differs when the server expected exactly the string that was signed', async () => {
    const error = await refusal('not_the_secret');
    expect(error.code).toBe('AUTH_SIGNATURE_MISMATCH');
    expect(error.detail).toMatch(/expected exactly the string that was signed, so the api secret is not the one/);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('not_the_secret');
  });

  it('says where the strings part when the server expected another one (here: a proxy changed the path)', async () => {
    server.use(
      http.get(`${BASE}/s2s/users/:userId`, ({ request }) => {
        const [, , signature, nonce, timestamp] = /^HMAC-SHA256 ([^:]+):([^:]+):([^:]+):(\d+)$/.exec(
          request.headers.get('authorization')!,
        )!;
        expect(signature).toBeTruthy();
        const expected = `test_keyGET${BASE}/v2/s2s/users/${userId}${timestamp}${nonce}`;
        return HttpResponse.json(
          {
            type: 'about:blank',
            title: 'Signature mismatch',
            status: 401,
            code: 'AUTH_SIGNATURE_MISMATCH',
            detail: 'The signature does not match the request.',
            stringToSign: expected,
          },
          { status: 401, headers: { 'content-type': 'application/problem+json', 'x-request-id': 'req_1' } },
        );
      }),
    );
    const error = await refusal('test_secret');
    expect(error.detail).toMatch(
      /differ from character 28: signed "[^"]*\/s2s\/users[^"]*", expected "[^"]*\/v2\/s2s[^"]*"/,
    );
  });
});
