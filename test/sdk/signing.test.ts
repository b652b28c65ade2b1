import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NonceCache, signRequest, verifySignature } from '../../sdk/src/signing';
import { repoPath } from '../helpers/spec';

interface Vector {
  name: string;
  input: { method: string; url: string; body: string | null; apiKey: string; apiSecret: string; timestamp: string; nonce: string };
  expected: { contentHash: string; stringToSign: string; signature: string; authorization: string };
}
const { vectors } = JSON.parse(readFileSync(repoPath('spec/signing-test-vectors.json'), 'utf8')) as { vectors: Vector[] };

describe('signRequest against the openssl-computed vectors', () => {
  it('has at least 8 vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(8));

  it.each(vectors)('$name', async ({ input, expected }) => {
    const signed = await signRequest(input);
    expect(signed.stringToSign).toBe(expected.stringToSign);
    expect(signed.authorization).toBe(expected.authorization);
  });

  it('refuses an empty api key or secret with a clear error', async () => {
    await expect(signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: '' })).rejects.toThrow(/apiSecret is required/);
    await expect(signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: '', apiSecret: 's' })).rejects.toThrow(/apiKey is required/);
  });

  it('makes a fresh 32-hex nonce and the current timestamp when none is given', async () => {
    const a = await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's' });
    const b = await signRequest({ method: 'GET', url: 'https://x.test/a', apiKey: 'k', apiSecret: 's' });
    expect(a.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect(Math.abs(Number(a.timestamp) - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('verifySignature', () => {
  const [vector] = vectors.filter((v) => v.input.body !== null);
  const { input } = vector!;
  const now = Number(input.timestamp);
  const getSecret = (key: string) => (key === input.apiKey ? input.apiSecret : undefined);
  const request = { method: input.method, url: input.url, body: input.body, getSecret, now };

  it('accepts every vector', async () => {
    for (const v of vectors) {
      const result = await verifySignature({
        method: v.input.method, url: v.input.url, body: v.input.body, authorization: v.expected.authorization,
        getSecret: () => v.input.apiSecret, now: Number(v.input.timestamp),
      });
      expect(result, v.name).toMatchObject({ ok: true, apiKey: v.input.apiKey });
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
    expect(await verifySignature({ ...request, authorization, now: now + 301 })).toMatchObject({ code: 'AUTH_TIMESTAMP_SKEW' });
    expect(await verifySignature({ ...request, authorization, now: now - 301 })).toMatchObject({ code: 'AUTH_TIMESTAMP_SKEW' });
    expect(await verifySignature({ ...request, authorization, now: now + 300 })).toMatchObject({ ok: true });
  });

  it('refuses a changed body, URL or method, and says what it expected to be signed', async () => {
    const authorization = vector!.expected.authorization;
    const changed = await verifySignature({ ...request, authorization, body: `${input.body} ` });
    expect(changed).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
    expect(changed.ok === false && changed.stringToSign).not.toBe(vector!.expected.stringToSign);
    expect(await verifySignature({ ...request, authorization, url: `${input.url}?x=1` })).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
    expect(await verifySignature({ ...request, authorization, method: 'PUT' })).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
    const garbage = authorization.replace(/:[^:]+:/, ':!!notbase64!!:');
    expect(await verifySignature({ ...request, authorization: garbage })).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
  });

  it('refuses a replayed nonce within the window', async () => {
    const nonces = new NonceCache();
    const authorization = vector!.expected.authorization;
    expect(await verifySignature({ ...request, authorization, nonces })).toMatchObject({ ok: true });
    expect(await verifySignature({ ...request, authorization, nonces })).toMatchObject({ ok: false, code: 'AUTH_NONCE_REUSED' });
  });

  it('remembers a nonce for the whole window: a replay 299 s later is still refused', async () => {
    const nonces = new NonceCache();
    const authorization = vector!.expected.authorization;
    expect(await verifySignature({ ...request, authorization, nonces, now })).toMatchObject({ ok: true });
    expect(await verifySignature({ ...request, authorization, nonces, now: now + 299 })).toMatchObject({ code: 'AUTH_NONCE_REUSED' });
  });

  it('keeps nonces per api key: two keys may use the same nonce', async () => {
    const nonces = new NonceCache();
    const secrets: Record<string, string> = { key_a: 'secret_a', key_b: 'secret_b' };
    const base = { method: 'GET', url: 'https://api.example.test/s2s/cards?userId=1', timestamp: input.timestamp, nonce: input.nonce };
    for (const apiKey of ['key_a', 'key_b']) {
      const { authorization } = await signRequest({ ...base, apiKey, apiSecret: secrets[apiKey]! });
      const result = await verifySignature({ ...base, authorization, getSecret: (key) => secrets[key], now, nonces });
      expect(result, apiKey).toMatchObject({ ok: true, apiKey });
    }
  });

  it('records a nonce only once the signature holds, so a forged request cannot burn a genuine one', async () => {
    const nonces = new NonceCache();
    const forged = await signRequest({ ...input, body: input.body, apiSecret: 'not_the_secret' });
    expect(await verifySignature({ ...request, authorization: forged.authorization, nonces })).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
    expect(await verifySignature({ ...request, authorization: vector!.expected.authorization, nonces })).toMatchObject({ ok: true });
  });
});
