/**
 * The edges of signing and verification that mutation testing (npm run test:mutation) found unpinned: each header
 * form the verifier must refuse, each body form the body hash must read, the secret's encodings, and the nonce
 * cache's window and case. Each test names the line it pins by what it does, not by where it is.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signRequest } from 'card-issuing-sdk';
import {
  buildStringToSign,
  isBase64Secret,
  NonceCache,
  parseAuthorization,
  verifySignature,
} from 'card-issuing-sdk/server';

const NONCE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const SIGNATURE = 'c2lnbmF0dXJl';

describe('parseAuthorization', () => {
  const header = (rest: string) => `HMAC-SHA256 ${rest}`;
  it('takes the four parts of the scheme', () => {
    expect(parseAuthorization(header(`key:${SIGNATURE}:${NONCE}:1700000000`))).toEqual({
      apiKey: 'key',
      signature: SIGNATURE,
      nonce: NONCE,
      timestamp: '1700000000',
    });
  });
  it.each([
    ['another scheme', `Bearer key:${SIGNATURE}:${NONCE}:1700000000`],
    ['the scheme with no space after it', `HMAC-SHA256key:${SIGNATURE}:${NONCE}:1700000000`],
    ['three parts', header(`key:${SIGNATURE}:${NONCE}`)],
    ['five parts', header(`key:${SIGNATURE}:${NONCE}:1700000000:extra`)],
    ['an empty api key', header(`:${SIGNATURE}:${NONCE}:1700000000`)],
    ['an empty signature', header(`key::${NONCE}:1700000000`)],
    ['a nonce with a prefix', header(`key:${SIGNATURE}:x${NONCE}:1700000000`)],
    ['a nonce with a suffix', header(`key:${SIGNATURE}:${NONCE}x:1700000000`)],
    ['a timestamp with a prefix', header(`key:${SIGNATURE}:${NONCE}:x1700000000`)],
    ['a timestamp with a suffix', header(`key:${SIGNATURE}:${NONCE}:1700000000x`)],
    ['a timestamp of 13 digits', header(`key:${SIGNATURE}:${NONCE}:1700000000000`)],
  ])('refuses %s', (_name, value) => {
    expect(parseAuthorization(value)).toBeUndefined();
  });
  it('takes a nonce without dashes, in upper case', () => {
    expect(parseAuthorization(header(`key:${SIGNATURE}:${NONCE.replaceAll('-', '').toUpperCase()}:1`))?.nonce).toBe(
      NONCE.replaceAll('-', '').toUpperCase(),
    );
  });
});

describe('the secret as the HMAC key', () => {
  const request = { method: 'GET', url: 'https://api.example.test/s2s/cards', timestamp: 1700000000, nonce: NONCE };
  it("refuses an encoding other than 'utf8' and 'base64', naming the caller", async () => {
    await expect(
      // @ts-expect-error: not a SecretEncoding
      signRequest({ apiKey: 'k', apiSecret: 's', secretEncoding: 'hex', ...request }),
    ).rejects.toThrow("signRequest: secretEncoding must be 'utf8' or 'base64'.");
  });
  it('refuses a base64 secret that decodes to nothing, without quoting it', async () => {
    await expect(signRequest({ apiKey: 'k', apiSecret: '====', secretEncoding: 'base64', ...request })).rejects.toThrow(
      /apiSecret is not base64/,
    );
  });
  it.each([
    ['padded', 'dGVzdF9zZWNyZXQ=', true],
    ['unpadded', 'dGVzdF9zZWNyZXQ', true],
    ['one byte', 'AA==', true],
    ['empty', '', false],
    ['padding only', '====', false],
    ['two padding characters', '==', false],
    ['4n+1 characters', 'abcde', false],
    ['the base64url alphabet', 'dGVzdF9zZWNyZXQ-_w', false],
  ])('isBase64Secret: a %s secret is %s', (_, secret, usable) => {
    expect(isBase64Secret(secret)).toBe(usable);
  });
  it('refuses a base64 secret of padding alone (no key bytes at all)', async () => {
    await expect(signRequest({ apiKey: 'k', apiSecret: '==', secretEncoding: 'base64', ...request })).rejects.toThrow(
      /apiSecret is not base64/,
    );
  });
  it('keys the HMAC with the decoded bytes under base64, and the characters under utf8', async () => {
    const secret = Buffer.from('raw secret bytes').toString('base64');
    const base64 = await signRequest({ apiKey: 'k', apiSecret: secret, secretEncoding: 'base64', ...request });
    const utf8 = await signRequest({ apiKey: 'k', apiSecret: secret, ...request });
    const expected = (key: Buffer | string) => createHmac('sha256', key).update(base64.stringToSign).digest('base64');
    expect(base64.authorization.split(' ')[1]!.split(':')[1]).toBe(expected(Buffer.from('raw secret bytes')));
    expect(utf8.authorization.split(' ')[1]!.split(':')[1]).toBe(expected(secret));
  });
});

describe('the body hash reads every body form', () => {
  const parts = { method: 'POST', url: 'https://x.test/a', apiKey: 'k', timestamp: '1', nonce: NONCE, bodyHash: true };
  const base = `kPOSThttps://x.test/a1${NONCE}`;
  const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('base64');
  it('null and undefined: no hash', async () => {
    await expect(buildStringToSign({ ...parts, body: null })).resolves.toBe(base);
    await expect(buildStringToSign({ ...parts, body: undefined })).resolves.toBe(base);
  });
  it('a string, an ArrayBuffer and a Uint8Array view into a larger buffer: the hash of exactly their bytes', async () => {
    const text = '{"amount":100}';
    const bytes = new TextEncoder().encode(text);
    const padded = new Uint8Array(bytes.length + 8);
    padded.set(bytes, 4);
    const view = padded.subarray(4, 4 + bytes.length);
    const arrayBuffer = bytes.slice().buffer;
    for (const body of [text, arrayBuffer, view])
      await expect(buildStringToSign({ ...parts, body })).resolves.toBe(base + sha(text));
  });
  it('an empty body: no hash', async () => {
    await expect(buildStringToSign({ ...parts, body: new ArrayBuffer(0) })).resolves.toBe(base);
  });
});

describe('NonceCache', () => {
  it('forgets a nonce once its window ends (at the instant, not after)', () => {
    const cache = new NonceCache();
    expect(cache.checkAndRecord('k', NONCE, 100, 200)).toBe(false);
    expect(cache.checkAndRecord('k', NONCE, 199, 300)).toBe(true);
    expect(cache.checkAndRecord('k', NONCE, 200, 300)).toBe(false);
  });
  it('a nonce is the same in upper and lower case', () => {
    const cache = new NonceCache();
    expect(cache.checkAndRecord('k', NONCE.toUpperCase(), 0, 100)).toBe(false);
    expect(cache.checkAndRecord('k', NONCE, 0, 100)).toBe(true);
  });
  it('clear() forgets every nonce and their order', () => {
    const cache = new NonceCache({ max: 2 });
    cache.checkAndRecord('k', 'a', 0, 100);
    cache.checkAndRecord('k', 'b', 0, 100);
    cache.clear();
    expect(cache.size).toBe(0);
    // With the arrival order cleared too, the oldest is c: a third nonce evicts it and the size stays at max.
    cache.checkAndRecord('k', 'c', 0, 100);
    cache.checkAndRecord('k', 'd', 0, 100);
    cache.checkAndRecord('k', 'e', 0, 100);
    expect(cache.size).toBe(2);
    expect(cache.checkAndRecord('k', 'c', 0, 100)).toBe(false);
  });
});

describe('verifySignature of a well-formed header with a malformed part', () => {
  it('is AUTH_MALFORMED, before the key is looked up', async () => {
    let looked = false;
    const result = await verifySignature({
      method: 'GET',
      url: 'https://x.test/a',
      authorization: `HMAC-SHA256 k:${SIGNATURE}:${NONCE}:17e8`,
      getSecret: () => {
        looked = true;
        return 's';
      },
    });
    expect(result).toMatchObject({ ok: false, code: 'AUTH_MALFORMED' });
    expect(looked).toBe(false);
  });
});

describe('verifySignature says what is wrong, in words a caller can act on', () => {
  const url = 'https://x.test/a';
  const now = 1_700_000_000;
  async function signed(options: { secret?: string; timestamp?: number; secretEncoding?: 'base64' } = {}) {
    const { authorization } = await signRequest({
      apiKey: 'k',
      apiSecret: options.secret ?? 'secret',
      method: 'GET',
      url,
      timestamp: options.timestamp ?? now,
      nonce: NONCE,
      ...(options.secretEncoding ? { secretEncoding: options.secretEncoding } : {}),
    });
    return authorization;
  }
  const verify = async (
    authorization: string | undefined,
    extra: Partial<Parameters<typeof verifySignature>[0]> = {},
  ) => verifySignature({ method: 'GET', url, authorization, getSecret: () => 'secret', now, ...extra });

  it('a missing header, an unknown key, a reused nonce', async () => {
    expect(await verify(undefined)).toMatchObject({
      code: 'AUTH_MISSING',
      detail: expect.stringMatching(/no Authorization header/),
    });
    expect(await verify(await signed(), { getSecret: () => undefined })).toMatchObject({
      code: 'AUTH_UNKNOWN_KEY',
      detail: 'Unknown api key "k".',
    });
    const nonces = new NonceCache();
    expect(await verify(await signed(), { nonces })).toMatchObject({ ok: true });
    expect(await verify(await signed(), { nonces })).toMatchObject({
      code: 'AUTH_NONCE_REUSED',
      detail: expect.stringMatching(/already used/),
    });
  });

  it('a clock ahead and a clock behind, by how much', async () => {
    expect(await verify(await signed({ timestamp: now + 301 }))).toMatchObject({
      ok: false,
      code: 'AUTH_TIMESTAMP_SKEW',
      detail: "The timestamp is 301 s ahead of the server's clock; at most 300 s is allowed.",
    });
    expect(await verify(await signed({ timestamp: now - 301 }))).toMatchObject({
      detail: "The timestamp is 301 s behind the server's clock; at most 300 s is allowed.",
    });
    expect(await verify(await signed({ timestamp: now - 300 }))).toMatchObject({ ok: true });
  });

  it('without `now`, the wall clock in seconds', async () => {
    const authorization = await signed({ timestamp: Math.floor(Date.now() / 1000) });
    expect(await verifySignature({ method: 'GET', url, authorization, getSecret: () => 'secret' })).toMatchObject({
      ok: true,
    });
  });

  it('a mismatch names the body hash only when the server requires it', async () => {
    const other = await signed({ secret: 'other' });
    expect(await verify(other)).toMatchObject({ detail: 'The signature does not match the request.' });
    expect(await verify(other, { bodyHash: true })).toMatchObject({
      detail: 'The signature does not match the request. This server requires the body hash: sign with bodyHash on.',
    });
  });

  it('with a faster hmac given: equal bytes pass, any other signature of any length fails', async () => {
    const hmac = (secret: string, message: string) => createHmac('sha256', secret).update(message).digest();
    expect(await verify(await signed(), { hmac })).toMatchObject({ ok: true });
    expect(await verify(await signed({ secret: 'other' }), { hmac })).toMatchObject({
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
    const header = await signed();
    const [, rest] = header.split(' ');
    const [key, signature, nonce, timestamp] = rest!.split(':');
    const bytes = Buffer.from(signature!, 'base64');
    for (const wrong of [bytes.subarray(0, 31), Buffer.concat([bytes, Buffer.from([0])]), Buffer.alloc(32)]) {
      const forged = `HMAC-SHA256 ${key}:${wrong.toString('base64')}:${nonce}:${timestamp}`;
      expect(await verify(forged, { hmac })).toMatchObject({ code: 'AUTH_SIGNATURE_MISMATCH' });
    }
    // The hmac is for UTF-8 secrets only: under base64 the decoded key signs, whatever the hmac says.
    const secret = Buffer.from('key bytes').toString('base64');
    expect(
      await verify(await signed({ secret, secretEncoding: 'base64' }), {
        getSecret: () => secret,
        secretEncoding: 'base64',
        hmac: () => new Uint8Array(32),
      }),
    ).toMatchObject({ ok: true });
  });

  it('under base64, a secret that is no base64 or decodes to no bytes makes every signature a mismatch', async () => {
    for (const secret of ['====', ''])
      expect(await verify(await signed(), { getSecret: () => secret, secretEncoding: 'base64' })).toMatchObject({
        code: 'AUTH_SIGNATURE_MISMATCH',
      });
  });

  it('by default the body is not signed: a body-less signature of a request with a body passes', async () => {
    const body = '{"amount":100}';
    const { authorization } = await signRequest({
      apiKey: 'k',
      apiSecret: 'secret',
      method: 'POST',
      url,
      body,
      timestamp: now,
      nonce: NONCE,
    });
    expect(
      await verifySignature({ method: 'POST', url, body, authorization, getSecret: () => 'secret', now }),
    ).toMatchObject({
      ok: true,
    });
  });
});
