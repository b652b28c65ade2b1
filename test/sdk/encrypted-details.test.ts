/**
 * `getEncryptedDetails` (issue 26): the JWE as the service sent it, for a backend to relay to the screen that made
 * the key. Against the standalone mock over HTTP, decrypted with jose (an independent JOSE implementation) and the
 * private key of the pair whose public key was sent; and against scripted answers, refused with a typed error when
 * it is not a compact JWE of the agreed form.
 */
import { compactDecrypt, CompactEncrypt, exportSPKI, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCardIssuingClient,
  generateCardKeyPair,
  ResponseValidationError,
  type CardIssuingClient,
} from 'card-issuing-sdk';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { businessCard } from '../helpers/business-card';

/** The base64url DER SPKI the API takes, from jose's PEM export. */
async function spkiBase64Url(publicKey: CryptoKey): Promise<string> {
  const pem = await exportSPKI(publicKey);
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return der.toString('base64url');
}

describe('getEncryptedDetails against the standalone mock', () => {
  let server: MockServer;
  let client: CardIssuingClient;
  /** Every response body the client received, as text. */
  const bodies: string[] = [];

  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 'encrypted-details-test' });
    client = createCardIssuingClient({
      baseUrl: server.url,
      apiKey: 'test_key',
      apiSecret: 'test_secret',
      retry: false,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        bodies.push(await response.clone().text());
        return response;
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('returns the JWE exactly as sent; jose decrypts it with the private key to the card that getDetails shows', async () => {
    const { corporateUuid, approval } = await businessCard(client, server.mock, {
      name: 'Grace',
      lastName: 'Hopper',
      email: 'grace.relay@example.org',
      phone: '+12025550143',
    });

    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const jwe = await client.corporates.approvals.getEncryptedDetails(corporateUuid, approval.approvalUuid, {
      publicKey: await spkiBase64Url(publicKey),
    });
    expect(bodies.at(-1)).toBe(JSON.stringify({ encryptedDetails: jwe }));

    const { plaintext, protectedHeader } = await compactDecrypt(jwe, privateKey);
    expect(protectedHeader).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    const details = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>;
    const shown = await client.corporates.approvals.getDetails(corporateUuid, approval.approvalUuid, {
      keyPair: await generateCardKeyPair(),
    });
    expect(details).toEqual(shown);
    expect(details.pan).toMatch(/^\d{12,19}$/);
    // The client never decrypted it: nothing of the card in the string it handed back.
    expect(jwe).not.toContain(String(details.pan));
  });
});

describe('getEncryptedDetails against scripted answers', () => {
  let publicKeyB64: string;
  let jwkPublic: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    jwkPublic = pair.publicKey;
    publicKeyB64 = await spkiBase64Url(pair.publicKey);
  });

  const details = { pan: '4111111111111111', expiryMonth: 12, expiryYear: 2030, cvv: '123', cardholderName: 'ADA L' };
  const seal = (header: { alg: string; enc: string; [name: string]: string }) =>
    new CompactEncrypt(new TextEncoder().encode(JSON.stringify(details))).setProtectedHeader(header).encrypt(jwkPublic);
  const clientAnswering = (body: unknown, seen: URL[] = [], validateResponses: false | 'strict' = 'strict') =>
    createCardIssuingClient({
      baseUrl: 'http://api.test',
      apiKey: 'k',
      apiSecret: 's',
      retry: false,
      validateResponses,
      fetch: async (input) => {
        seen.push(new URL(input instanceof Request ? input.url : String(input)));
        return Response.json(body, { headers: { 'x-request-id': 'req_relay' } });
      },
    });
  const cardId = '6f1c2a9e-4b7d-4c1e-9a3f-2d5e8b7c1a40';

  it('sends the public key as given in the query and returns what jose sealed, byte for byte', async () => {
    const jwe = await seal({ alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'application/json' });
    const seen: URL[] = [];
    const got = await clientAnswering({ encryptedDetails: jwe }, seen).s2s.cards.getEncryptedDetails(cardId, {
      publicKey: publicKeyB64,
    });
    expect(got).toBe(jwe);
    expect(seen[0]!.pathname).toBe(`/s2s/cards/${cardId}/details`);
    expect(seen[0]!.searchParams.get('publicKey')).toBe(publicKeyB64);
  });

  it.each([
    ['another key wrapping (RSA-OAEP, SHA-1)', { alg: 'RSA-OAEP', enc: 'A256GCM' }],
    ['another content cipher (A128GCM)', { alg: 'RSA-OAEP-256', enc: 'A128GCM' }],
    ['compression (zip)', { alg: 'RSA-OAEP-256', enc: 'A256GCM', zip: 'DEF' }],
  ])('refuses a JWE with %s: ResponseValidationError at encryptedDetails, holding none of it', async (_, header) => {
    const jwe = await seal(header).catch(() => undefined);
    // jose refuses to make some of these; a forged header on a good JWE is then what a hostile server sends.
    const good = await seal({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    const sent =
      jwe ?? [Buffer.from(JSON.stringify(header)).toString('base64url'), ...good.split('.').slice(1)].join('.');
    const error = await clientAnswering({ encryptedDetails: sent })
      .s2s.cards.getEncryptedDetails(cardId, { publicKey: publicKeyB64 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      code: 'RESPONSE_VALIDATION_FAILED',
      path: 'encryptedDetails',
      operation: 'getCardDetails',
      status: 200,
      requestId: 'req_relay',
    });
    expect(JSON.stringify(error)).not.toContain(sent.split('.')[2]);
  });

  it.each([
    ['four parts', 'a.b.c.d'],
    ['a 64-bit IV', 'HEADER.a2V5.AAAAAAAAAAA.Y2lwaGVy.AAAAAAAAAAAAAAAAAAAAAA'],
    ['no encrypted details at all', undefined],
  ])('refuses %s (response validation off, so only the relay check stands)', async (_, value) => {
    const header = Buffer.from('{"alg":"RSA-OAEP-256","enc":"A256GCM"}').toString('base64url');
    const body = value === undefined ? {} : { encryptedDetails: value.replace('HEADER', header) };
    const error = await clientAnswering(body, [], false)
      .corporates.approvals.getEncryptedDetails(cardId, cardId, { publicKey: publicKeyB64 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ path: 'encryptedDetails', operation: 'getApprovalCardDetails' });
  });
});
