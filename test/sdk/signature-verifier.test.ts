import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { NonceCache } from '../../sdk/src/signing/nonce-cache';
import {
  createSignatureVerifier,
  verifySignature,
  type SignatureVerifierOptions,
  type SignedRequestInput,
} from '../../sdk/src/signing/verify';
import { repoPath } from '../helpers/spec';

interface Vector {
  name: string;
  input: {
    method: string;
    url: string;
    body: string | null;
    apiKey: string;
    apiSecret: string;
    timestamp: string;
    bodyHash: boolean;
    secretEncoding: 'utf8' | 'base64';
  };
  expected: { authorization: string };
}
// Computed with openssl (spec/signing-test-vectors.json), not by the SDK.
const { vectors } = JSON.parse(readFileSync(repoPath('spec/signing-test-vectors.json'), 'utf8')) as {
  vectors: Vector[];
};

const optionsOf = (v: Vector, nonces?: NonceCache): SignatureVerifierOptions => ({
  getSecret: (key) => (key === v.input.apiKey ? v.input.apiSecret : undefined),
  bodyHash: v.input.bodyHash,
  secretEncoding: v.input.secretEncoding,
  ...(nonces ? { nonces } : {}),
});
const requestOf = (v: Vector, authorization = v.expected.authorization): SignedRequestInput => ({
  method: v.input.method,
  url: v.input.url,
  body: v.input.body,
  authorization,
  now: Number(v.input.timestamp),
});

describe('createSignatureVerifier', () => {
  it('accepts every openssl-computed vector, synchronously on Node unless a body is hashed', async () => {
    for (const v of vectors) {
      const result = createSignatureVerifier(optionsOf(v)).verify(requestOf(v));
      const hashed = v.input.bodyHash && (v.input.body ?? '') !== '';
      expect(result instanceof Promise, v.name).toBe(hashed);
      expect(await result, v.name).toMatchObject({ ok: true, apiKey: v.input.apiKey });
    }
  });

  it('answers as verifySignature does, refusal for refusal, in the same order', async () => {
    for (const v of vectors) {
      const [, rest] = v.expected.authorization.split(' ') as [string, string];
      const [key, signature, nonce, timestamp] = rest.split(':') as [string, string, string, string];
      const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
      const headers = [
        undefined,
        'Bearer x',
        `HMAC-SHA256 other:${signature}:${nonce}:${timestamp}`,
        `HMAC-SHA256 ${key}:${signature}:${nonce}:${Number(timestamp) + 301}`,
        `HMAC-SHA256 ${key}:${flipped}:${nonce}:${timestamp}`,
        `HMAC-SHA256 ${key}:not*base64:${nonce}:${timestamp}`,
        v.expected.authorization,
        // The same nonce again: refused as a replay by both.
        v.expected.authorization,
      ];
      const mine = new NonceCache();
      const theirs = new NonceCache();
      const verifier = createSignatureVerifier(optionsOf(v, mine));
      for (const authorization of headers) {
        const request = requestOf(v, authorization as string);
        const expected = await verifySignature({ ...optionsOf(v, theirs), ...request });
        expect(await verifier.verify(request), `${v.name}: ${authorization}`).toEqual(expected);
      }
      expect(mine.size).toBe(1);
    }
  });

  it("makes each secret's key once: the caller's own HMAC is called per request, never re-imported", async () => {
    const v = vectors.find((x) => !x.input.bodyHash && x.input.secretEncoding === 'utf8')!;
    const { createHmac } = await import('node:crypto');
    const hmac = vi.fn((secret: string, message: string) => createHmac('sha256', secret).update(message).digest());
    const verifier = createSignatureVerifier({ ...optionsOf(v), hmac });
    expect(verifier.verify(requestOf(v))).toMatchObject({ ok: true });
    expect(hmac).toHaveBeenCalledTimes(1);
  });

  it('refuses every signature made with a base64 secret that is not base64', async () => {
    const v = vectors.find((x) => x.input.secretEncoding === 'base64' && !x.input.bodyHash)!;
    const verifier = createSignatureVerifier({ ...optionsOf(v), getSecret: () => 'not base64!' });
    expect(await verifier.verify(requestOf(v))).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
  });
});
