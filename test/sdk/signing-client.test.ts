/**
 * The client signs as the service publishes it by default, and with the body hash when told to: against the real
 * mock (in-process through msw), with its default verification and with `bodyHash: true`. Each client imports its
 * HMAC key once, and never reads a request body to sign it unless the body hash is on.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock } from '../../mock-server/src/index';
import { AuthenticationError, createCardIssuingClient } from '../../sdk/src/index';

const BASE = 'http://signing.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const registration = (tag: string) => ({
  email: `${tag}@example.org`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+447700900123',
  dateOfBirth: '1990-12-10',
  country: 'GB',
});
const client = (bodyHash?: boolean) =>
  createCardIssuingClient({
    baseUrl: BASE,
    apiKey: 'test_key',
    apiSecret: 'test_secret',
    retry: false,
    ...(bodyHash === undefined ? {} : { bodyHash }),
  });

describe('the client and the mock agree on what is signed', () => {
  it('by default (five parts): a POST with a body is accepted; a client that adds the body hash is refused', async () => {
    server.use(...createMock({ baseUrl: BASE }).handlers);
    expect((await client().s2s.users.create(registration('five'))).email).toBe('five@example.org');
    const refused = await client(true)
      .s2s.users.create(registration('hashed'))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).code).toBe('AUTH_SIGNATURE_MISMATCH');
  });

  it('with bodyHash on both sides: accepted; a five-part client is refused, told the server requires the hash', async () => {
    server.use(...createMock({ baseUrl: BASE, bodyHash: true }).handlers);
    expect((await client(true).s2s.users.create(registration('both'))).email).toBe('both@example.org');
    const refused = await client()
      .s2s.users.create(registration('five-only'))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthenticationError);
    expect((refused as AuthenticationError).detail).toMatch(/requires the body hash/);
  });

  it('imports the HMAC key once for a client, however many requests it signs', async () => {
    server.use(...createMock({ baseUrl: BASE }).handlers);
    const sdk = client();
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    try {
      const user = await sdk.s2s.users.create(registration('once'));
      for (let i = 0; i < 4; i++) await sdk.s2s.users.get(user.id);
      const hmacImports = importKey.mock.calls.filter(
        ([, , algorithm]) => (algorithm as { name?: string }).name === 'HMAC',
      );
      // Five signed requests: at most one import for the client's key and one for the mock's own cached key (five or
      // more for the client alone if it imported per request).
      expect(hmacImports.length).toBeLessThanOrEqual(2);
    } finally {
      importKey.mockRestore();
    }
  });
});
