import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { NonceCache } from '../../sdk/src/signing/nonce-cache';
import { createNonce, randomUuid } from '../../sdk/src/signing/nonce';
import { createSigner, signRequest } from '../../sdk/src/signing/sign';
import { verifySignature } from '../../sdk/src/signing/verify';
import { repoPath } from '../helpers/spec';

interface Vector {
  name: string;
  profile: 'published' | 'bodyHash';
  input: {
    method: string;
    url: string;
    body: string | null;
    apiKey: string;
    apiSecret: string;
    timestamp: string;
    nonce: string;
    bodyHash: boolean;
    secretEncoding: 'utf8' | 'base64';
  };
  expected: { contentHash: string; stringToSign: string; signature: string; authorization: string };
}
const { vectors } = JSON.parse(readFileSync(repoPath('spec/signing-test-vectors.json'), 'utf8')) as {
  vectors: Vector[];
};

// The raw string of the service's HMACSHA256 page, copied from the page (issue 9), not from our vectors.
const PUBLISHED_RAW_STRING =
  '16de9f8b-b414-4c50-b3c8-cf8355683a42POSThttps://api.mobilum.com/s2s/health?arg1=test1167474201375293d8ca0e6453f823fe87315e9483b';

describe('signRequest against the openssl-computed vectors', () => {
  it('has at least 8 vectors of each profile', () => {
    expect(vectors.filter((v) => v.profile === 'published').length).toBeGreaterThanOrEqual(8);
    expect(vectors.filter((v) => v.profile === 'bodyHash').length).toBeGreaterThanOrEqual(8);
    for (const v of vectors) expect(v.input.bodyHash, v.name).toBe(v.profile === 'bodyHash');
  });

  it("signs the service's published example to the page's raw string, by default", async () => {
    const signed = await signRequest({
      method: 'POST',
      url: 'https://api.mobilum.com/s2s/health?arg1=test1',
      apiKey: '16de9f8b-b414-4c50-b3c8-cf8355683a42',
      apiSecret: 'any',
      timestamp: 1674742013,
      nonce: '75293d8ca0e6453f823fe87315e9483b',
    });
    expect(signed.stringToSign).toBe(PUBLISHED_RAW_STRING);
    const published = vectors.find((v) => v.name === 'published-example')!;
    expect(published.expected.stringToSign).toBe(PUBLISHED_RAW_STRING);
  });

  it('does not sign the body by default: a POST with a body signs the five parts only', async () => {
    const input = {
      method: 'POST',
      url: 'https://x.test/a',
      apiKey: 'k',
      apiSecret: 's',
      timestamp: 1,
      nonce: '0'.repeat(32),
    };
    const withBody = await signRequest({ ...input, body: '{"a":1}' });
    expect(withBody.stringToSign).toBe(`kPOSThttps://x.test/a1${'0'.repeat(32)}`);
    expect(withBody.authorization).toBe((await signRequest(input)).authorization);
    expect((await signRequest({ ...input, body: '{"a":1}', bodyHash: true })).stringToSign).not.toBe(
      withBody.stringToSign,
    );
  });

  it.each(vectors)('$profile: $name', async ({ input, expected }) => {
    const signed = await signRequest(input);
    expect(signed.stringToSign).toBe(expected.stringToSign);
    expect(signed.authorization).toBe(expected.authorization);
  });

  // On Node the signer uses node:crypto (through process.getBuiltinModule, never an import); where that is missing
  // (browsers, workers) it imports the key into Web Crypto once. Both give the openssl vectors' signatures.
  it.each([
    ['node:crypto (Node)', true, 0],
    ['Web Crypto, the key imported once (no process.getBuiltinModule)', false, 1],
  ] as const)("createSigner with %s gives the vectors' signatures", async (_name, node, imports) => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const builtin = process.getBuiltinModule;
    if (!node) (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    try {
      for (const profile of ['published', 'bodyHash'] as const) {
        const group = vectors.filter((v) => v.profile === profile && v.input.apiKey === 'test_key');
        const signer = createSigner({ apiKey: 'test_key', apiSecret: 'test_secret', bodyHash: profile === 'bodyHash' });
        importKey.mockClear();
        for (const { input, expected } of group)
          expect((await signer.sign(input)).authorization, input.url).toBe(expected.authorization);
        expect(group.length).toBeGreaterThan(2);
        expect(importKey).toHaveBeenCalledTimes(imports);
      }
    } finally {
      process.getBuiltinModule = builtin;
      importKey.mockRestore();
    }
  });

  it('refuses an empty api key or secret with a clear error', async () => {
    await expect(signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: '' })).rejects.toThrow(
      /apiSecret is required/,
    );
    await expect(signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: '', apiSecret: 's' })).rejects.toThrow(
      /apiKey is required/,
    );
  });

  it('makes a fresh 32-hex nonce and the current timestamp when none is given', async () => {
    const a = await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's' });
    const b = await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's' });
    expect(a.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(Math.abs(Number(a.timestamp) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('makes nonces and version-4 UUIDs without crypto.randomUUID (a page outside a secure context)', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
    try {
      const nonces = new Set(Array.from({ length: 200 }, () => createNonce()));
      expect(nonces.size).toBe(200);
      for (const nonce of nonces) expect(nonce).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
      expect(randomUuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true, writable: true });
    }
  });
});

describe('verifySignature', () => {
  const [vector] = vectors.filter((v) => v.profile === 'bodyHash' && v.input.body);
  const { input } = vector!;
  const now = Number(input.timestamp);
  const getSecret = (key: string) => (key === input.apiKey ? input.apiSecret : undefined);
  const request = { method: input.method, url: input.url, body: input.body, getSecret, now, bodyHash: true };

  it('accepts every vector with its profile', async () => {
    for (const v of vectors) {
      const result = await verifySignature({
        method: v.input.method,
        url: v.input.url,
        body: v.input.body,
        authorization: v.expected.authorization,
        getSecret: () => v.input.apiSecret,
        now: Number(v.input.timestamp),
        bodyHash: v.input.bodyHash,
        secretEncoding: v.input.secretEncoding,
      });
      expect(result, v.name).toMatchObject({ ok: true, apiKey: v.input.apiKey });
    }
  });

  it('refuses a five-part signature of a request with a body when it requires body hashes, and says so', async () => {
    const published = vectors.find((v) => v.name === 'post-json-body-not-signed')!;
    const verify = (bodyHash: boolean) =>
      verifySignature({
        method: published.input.method,
        url: published.input.url,
        body: published.input.body,
        authorization: published.expected.authorization,
        getSecret: () => published.input.apiSecret,
        now: Number(published.input.timestamp),
        bodyHash,
      });
    expect(await verify(false)).toMatchObject({ ok: true });
    const refused = await verify(true);
    expect(refused).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
    expect(refused.ok === false && refused.detail).toMatch(/requires the body hash/);
  });

  it('accepts a GUID nonce with or without dashes, in any case, and refuses anything else as malformed', async () => {
    const base = {
      method: 'GET',
      url: 'https://api.example.test/s2s/cards?userId=1',
      apiKey: 'k',
      apiSecret: 's',
      timestamp: now,
    };
    const check = async (nonce: string) => {
      const { authorization } = await signRequest({ ...base, nonce });
      return verifySignature({ ...base, authorization, getSecret: () => 's', now });
    };
    for (const nonce of [
      '0f1e2d3c4b5a49688776a5b4c3d2e1f0',
      '0F1E2D3C4B5A49688776A5B4C3D2E1F0',
      '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      '9F1C2D3E-4B5A-4C6D-8E7F-0A1B2C3D4E5F',
    ]) {
      expect(await check(nonce), nonce).toMatchObject({ ok: true });
    }
    for (const nonce of [
      '0f1e2d3c4b5a49688776a5b4c3d2e1f',
      'zz1e2d3c4b5a49688776a5b4c3d2e1f0',
      '0f1e2d3c-4b5a4968-8776-a5b4c3d2e1f0',
      'nonce',
    ]) {
      expect(await check(nonce), nonce).toMatchObject({ ok: false, code: 'AUTH_MALFORMED' });
    }
  });

  it.each([
    ['AUTH_MISSING', undefined],
    ['AUTH_MALFORMED', 'Bearer abc'],
    ['AUTH_MALFORMED', `HMAC-SHA256 ${input.apiKey}:sig:NOTHEX:${input.timestamp}`],
    ['AUTH_UNKNOWN_KEY', vector!.expected.authorization.replace(input.apiKey, 'other_key')],
  ])('refuses with %s', async (code, authorization) => {
    expect(await verifySignature({ ...request, authorization })).toMatchObject({ ok: false, code });
  });

  it('refuses a timestamp more than 300 s from the wall clock, in either direction', async () => {
    const authorization = vector!.expected.authorization;
    expect(await verifySignature({ ...request, authorization, now: now + 301 })).toMatchObject({
      code: 'AUTH_TIMESTAMP_SKEW',
    });
    expect(await verifySignature({ ...request, authorization, now: now - 301 })).toMatchObject({
      code: 'AUTH_TIMESTAMP_SKEW',
    });
    expect(await verifySignature({ ...request, authorization, now: now + 300 })).toMatchObject({ ok: true });
  });

  it('refuses a changed body, URL or method, and says what it expected to be signed', async () => {
    const authorization = vector!.expected.authorization;
    const changed = await verifySignature({ ...request, authorization, body: `${input.body} ` });
    expect(changed).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
    expect(changed.ok === false && changed.stringToSign).not.toBe(vector!.expected.stringToSign);
    expect(await verifySignature({ ...request, authorization, url: `${input.url}?x=1` })).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
    expect(await verifySignature({ ...request, authorization, method: 'PUT' })).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
    const garbage = authorization.replace(/:[^:]+:/, ':!!notbase64!!:');
    expect(await verifySignature({ ...request, authorization: garbage })).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
  });

  it('refuses a replayed nonce within the window', async () => {
    const nonces = new NonceCache();
    const authorization = vector!.expected.authorization;
    expect(await verifySignature({ ...request, authorization, nonces })).toMatchObject({ ok: true });
    expect(await verifySignature({ ...request, authorization, nonces })).toMatchObject({
      ok: false,
      code: 'AUTH_NONCE_REUSED',
    });
  });

  it('remembers a nonce for the whole window: a replay 299 s later is still refused', async () => {
    const nonces = new NonceCache();
    const authorization = vector!.expected.authorization;
    expect(await verifySignature({ ...request, authorization, nonces, now })).toMatchObject({ ok: true });
    expect(await verifySignature({ ...request, authorization, nonces, now: now + 299 })).toMatchObject({
      code: 'AUTH_NONCE_REUSED',
    });
  });

  it('keeps nonces per api key: two keys may use the same nonce', async () => {
    const nonces = new NonceCache();
    const secrets: Record<string, string> = { key_a: 'secret_a', key_b: 'secret_b' };
    const base = {
      method: 'GET',
      url: 'https://api.example.test/s2s/cards?userId=1',
      timestamp: input.timestamp,
      nonce: input.nonce,
    };
    for (const apiKey of ['key_a', 'key_b']) {
      const { authorization } = await signRequest({ ...base, apiKey, apiSecret: secrets[apiKey]! });
      const result = await verifySignature({ ...base, authorization, getSecret: (key) => secrets[key], now, nonces });
      expect(result, apiKey).toMatchObject({ ok: true, apiKey });
    }
  });

  it('records a nonce only once the signature holds, so a forged request cannot burn a genuine one', async () => {
    const nonces = new NonceCache();
    const forged = await signRequest({ ...input, body: input.body, apiSecret: 'not_the_secret' });
    expect(await verifySignature({ ...request, authorization: forged.authorization, nonces })).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
    expect(await verifySignature({ ...request, authorization: vector!.expected.authorization, nonces })).toMatchObject({
      ok: true,
    });
  });
});

describe('NonceCache', () => {
  it('forgets a nonce once its window passes, and the oldest first past max, at any size', () => {
    const cache = new NonceCache({ max: 5_000 });
    for (let i = 0; i < 50_000; i++) expect(cache.checkAndRecord('k', `n${i}`, 100, 200)).toBe(false);
    expect(cache.size).toBe(5_000);
    expect(cache.checkAndRecord('k', 'n49999', 100, 200)).toBe(true); // the newest are kept
    expect(cache.checkAndRecord('k', 'n44999', 100, 200)).toBe(false); // the oldest were forgotten
    expect(cache.checkAndRecord('k', 'late', 250, 400)).toBe(false); // every nonce that expired by 250 is gone
    expect(cache.size).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a max that is not a positive whole number', () => {
    expect(() => new NonceCache({ max: 0 })).toThrow(/max must be a positive whole number/);
  });
});
