/**
 * What verifySignature must refuse by length: a signature of any length but HMAC-SHA256's 32 bytes (a prefix of the
 * right signature, or the right one with bytes added, which a compare that stops at the shorter length would take),
 * and a key of no bytes (an empty secret, or a base64 secret that decodes to nothing). Each on both of its paths:
 * Web Crypto's verify, and the constant-time compare of a caller's own `hmac` (node:crypto, as the mock passes it).
 * Every refusal is a mismatch with a stable code, never a throw.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signRequest } from '../../sdk/src/signing/sign';
import { verifySignature, type VerifySignatureInput } from '../../sdk/src/signing/verify';

const url = 'https://api.example.test/s2s/users?limit=2';
const apiKey = 'k_lengths';
const apiSecret = 'sk_lengths_secret';
const nodeHmac = (secret: string, message: string) =>
  new Uint8Array(createHmac('sha256', secret).update(message, 'utf8').digest());
const paths = [
  ['Web Crypto', undefined],
  ['a caller-supplied hmac', nodeHmac],
] as const;

/** A header signed with the right secret whose signature bytes are replaced by `bytes(right)`. */
async function headerWith(bytes: (right: Buffer) => Buffer): Promise<{ authorization: string; timestamp: number }> {
  const signed = await signRequest({ method: 'GET', url, apiKey, apiSecret });
  const right = Buffer.from(signed.authorization.split(':')[1]!, 'base64');
  expect(right.byteLength).toBe(32);
  const signature = bytes(right).toString('base64');
  return {
    authorization: `HMAC-SHA256 ${apiKey}:${signature}:${signed.nonce}:${signed.timestamp}`,
    timestamp: Number(signed.timestamp),
  };
}

const verify = (input: Partial<VerifySignatureInput> & { authorization: string; now: number }) =>
  verifySignature({ method: 'GET', url, getSecret: () => apiSecret, ...input });

describe.each(paths)('verifySignature refuses a signature of the wrong length (%s)', (_name, hmac) => {
  it('accepts the right signature (the control)', async () => {
    const { authorization, timestamp } = await headerWith((right) => right);
    expect(await verify({ authorization, now: timestamp, hmac })).toMatchObject({ ok: true });
  });

  it.each(Array.from({ length: 31 }, (_, i) => i + 1))(
    'a prefix of %i bytes of the right signature',
    async (length) => {
      const { authorization, timestamp } = await headerWith((right) => right.subarray(0, length));
      expect(await verify({ authorization, now: timestamp, hmac })).toMatchObject({
        ok: false,
        code: 'AUTH_SIGNATURE_MISMATCH',
      });
    },
  );

  it.each([1, 2, 16, 32, 64])('the right signature with %i bytes added', async (extra) => {
    const { authorization, timestamp } = await headerWith((right) => Buffer.concat([right, Buffer.alloc(extra)]));
    expect(await verify({ authorization, now: timestamp, hmac })).toMatchObject({
      ok: false,
      code: 'AUTH_SIGNATURE_MISMATCH',
    });
  });
});

describe.each(paths)('verifySignature refuses a key of no bytes (%s)', (_name, hmac) => {
  it.each([
    ['an empty secret (utf8)', '', 'utf8'],
    ['an empty secret (base64)', '', 'base64'],
    ['a base64 secret of padding only', '==', 'base64'],
  ] as const)('%s: a mismatch, not a throw', async (_what, secret, secretEncoding) => {
    const { authorization, timestamp } = await headerWith((right) => right);
    expect(
      await verify({ authorization, now: timestamp, hmac, secretEncoding, getSecret: () => secret }),
    ).toMatchObject({ ok: false, code: 'AUTH_SIGNATURE_MISMATCH' });
  });
});
