/**
 * `GET /__mock/reveal`: the SDK's reveal frame as the package ships it, under a CSP that allows exactly its inline
 * script and style (by hash), no connection, sandboxes the document, and lets local pages (and the origins the
 * server was told of) frame it. And `GET /__mock/cards/{cardId}/details?publicKey=`, what the inspector's reveal
 * fetches: the details of any ACTIVE card encrypted to the key, as the API's details operations answer.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from 'card-issuing-mock/node';
import { businessCard } from '../helpers/business-card';
import { createCardIssuingClient, decryptCardDetails, exportPublicKey, generateCardKeyPair } from 'card-issuing-sdk';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 'reveal-page', corsOrigins: ['https://app.example.test'] });
});
afterAll(async () => {
  await server?.close();
});

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('GET /__mock/reveal', () => {
  it("serves the package's frame.html under a CSP of its own hashes, sandboxed, framable by local pages", async () => {
    const response = await fetch(`${server.url}/__mock/reveal`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const shipped = readFileSync(createRequire(import.meta.url).resolve('card-issuing-sdk/reveal/frame.html'), 'utf8');
    expect(html).toBe(shipped);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = (response.headers.get('content-security-policy') ?? '').split('; ');
    expect(csp).toEqual([
      "default-src 'none'",
      `script-src ${hash(script)}`,
      `style-src ${hash(style)}`,
      "connect-src 'none'",
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'self' http://localhost:* http://127.0.0.1:* http://[::1]:* https://localhost:* https://app.example.test",
      'sandbox allow-scripts',
    ]);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves only GET: another method goes on to the control routes (404)', async () => {
    const response = await fetch(`${server.url}/__mock/reveal`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});

describe('GET /__mock/cards/{cardId}/details', () => {
  it("answers an ACTIVE business card's details encrypted to the key, the API's refusals otherwise", async () => {
    const client = createCardIssuingClient({ baseUrl: server.url, apiKey: 'test_key', apiSecret: 'test_secret' });
    const { corporateUuid, approval, userUuid } = await businessCard(
      client,
      server.mock,
      { name: 'Dorothy', lastName: 'Vaughan', email: 'dorothy@example.org', phone: '+12025550144' },
      false,
    );
    const keyPair = await generateCardKeyPair();
    const publicKey = await exportPublicKey(keyPair);
    const details = (cardId: string, key = publicKey) =>
      fetch(`${server.url}/__mock/cards/${cardId}/details?publicKey=${key}`);

    // Not generated yet: the card is INACTIVE until the approval is DELIVERED.
    const inactive = await details(approval.card.id);
    expect(inactive.status).toBe(409);
    expect(await inactive.json()).toMatchObject({ code: 'CARD_NOT_ACTIVE' });

    server.mock.users.completeRegistration(userUuid);
    const response = await details(approval.card.id);
    expect(response.status).toBe(200);
    const { encryptedDetails } = (await response.json()) as { encryptedDetails: string };
    const shown = await client.corporates.approvals.getDetails(corporateUuid, approval.approvalUuid, { keyPair });
    await expect(decryptCardDetails(encryptedDetails, keyPair)).resolves.toEqual(shown);

    const badKey = await details(approval.card.id, 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotakey');
    expect(badKey.status).toBe(400);
    expect(await badKey.json()).toMatchObject({ code: 'PUBLIC_KEY_INVALID' });
    const unknown = await details('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });
});
