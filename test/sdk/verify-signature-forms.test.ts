/**
 * The verifier reads the header's parts in place and compares a signature as node:crypto's base64 text before
 * decoding it. Both are shortcuts: these tests hold them to the answers of the plain forms they replaced (a split on
 * ':' with the same checks; every signature decoded and compared as bytes), on the forms a client may send.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAuthorization } from '../../sdk/src/signing/authorization';
import { NonceCache } from '../../sdk/src/signing/nonce-cache';
import { createSignatureVerifier, type SignatureVerifierOptions } from '../../sdk/src/signing/verify';

const NONCE = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The parse as it was: split on ':' into exactly four parts, then the same checks. */
function splitParse(header: string) {
  if (!header.startsWith('HMAC-SHA256 ')) return undefined;
  const parts = header.slice(12).split(':');
  if (parts.length !== 4) return undefined;
  const [apiKey, signature, nonce, timestamp] = parts as [string, string, string, string];
  if (!apiKey || !signature || !NONCE.test(nonce) || !/^[0-9]{1,12}$/.test(timestamp)) return undefined;
  return { apiKey, signature, nonce, timestamp };
}

describe('parseAuthorization', () => {
  const pieces = [
    '',
    'k',
    'test_key',
    'c2ln',
    'a'.repeat(32),
    'A1B2C3D4-0000-4000-8000-00000000000F',
    '1764000000',
    ':',
    '::',
    ' ',
    '0'.repeat(13),
  ];
  const pick = () => pieces[Math.floor(Math.random() * pieces.length)]!;

  it('gives what the split on colons gave, on 20,000 headers made of valid and broken parts', () => {
    for (let i = 0; i < 20_000; i++) {
      const count = 1 + Math.floor(Math.random() * 6);
      const body = Array.from({ length: count }, pick).join(Math.random() < 0.9 ? ':' : '');
      const header = `${Math.random() < 0.95 ? 'HMAC-SHA256 ' : 'HMAC-SHA256'}${body}`;
      expect(parseAuthorization(header), header).toEqual(splitParse(header));
    }
  });

  it('reads a well-formed header, and refuses one with a fifth part or an empty one', () => {
    const nonce = 'a'.repeat(32);
    expect(parseAuthorization(`HMAC-SHA256 k:sig:${nonce}:1764000000`)).toEqual({
      apiKey: 'k',
      signature: 'sig',
      nonce,
      timestamp: '1764000000',
    });
    expect(parseAuthorization(`HMAC-SHA256 k:sig:${nonce}:1764000000:`)).toBeUndefined();
    expect(parseAuthorization(`HMAC-SHA256 :sig:${nonce}:1764000000`)).toBeUndefined();
    expect(parseAuthorization(`HMAC-SHA256 k::${nonce}:1764000000`)).toBeUndefined();
  });
});

describe('a signature in any base64 form that decodes to the HMAC', () => {
  const url = 'http://127.0.0.1:4010/s2s/users/3f0b7c52-9d0e-4c6a-9a55-1e2f7b8c9d01';
  const now = 1_764_000_000;
  const header = (signature: string, nonce: string) => `HMAC-SHA256 k:${signature}:${nonce}:${now}`;
  const mac = (nonce: string) => createHmac('sha256', 'secret').update(`kGET${url}${now}${nonce}`).digest('base64');
  // node:crypto's own HMAC (base64 text), and a caller's hmac (bytes): the two ways the verifier compares.
  const verifiers: [string, SignatureVerifierOptions][] = [
    ['node:crypto', { getSecret: () => 'secret' }],
    [
      "the caller's hmac",
      { getSecret: () => 'secret', hmac: (key, message) => createHmac('sha256', key).update(message).digest() },
    ],
  ];

  // 32 bytes: 43 characters and one '='; the 43rd carries 4 bits of the HMAC and 2 that decoding drops.
  const forms: [string, (canonical: string) => string, boolean][] = [
    ['canonical', (s) => s, true],
    ['without its padding', (s) => s.replace(/=+$/, ''), true],
    [
      'with the dropped bits set',
      (s) => s.slice(0, 42) + String.fromCharCode(s.charCodeAt(42) + 1) + s.slice(43),
      true,
    ],
    ['with one bit of the HMAC changed', (s) => String.fromCharCode(s.charCodeAt(0) ^ 1) + s.slice(1), false],
    ['with a character outside base64', (s) => `${s.slice(0, 10)}*${s.slice(11)}`, false],
    ['one character short', (s) => s.slice(1), false],
    ['with a byte more', (s) => Buffer.concat([Buffer.from(s, 'base64'), Buffer.of(0)]).toString('base64'), false],
  ];

  for (const [who, options] of verifiers) {
    for (const [form, change, accepted] of forms) {
      it(`${who}: ${form} is ${accepted ? 'accepted' : 'a mismatch'}`, () => {
        const verifier = createSignatureVerifier({ ...options, nonces: new NonceCache() });
        const nonce = randomBytes(16).toString('hex');
        const canonical = mac(nonce);
        const signature = change(canonical);
        // The form under test really is another text (the dropped bits: one that still decodes to the HMAC).
        if (form !== 'canonical') expect(signature).not.toBe(canonical);
        if (form === 'with the dropped bits set')
          expect(Buffer.from(signature, 'base64').equals(Buffer.from(canonical, 'base64'))).toBe(true);
        const result = verifier.verify({ method: 'GET', url, authorization: header(signature, nonce), now });
        expect(result).toMatchObject(
          accepted ? { ok: true, apiKey: 'k' } : { ok: false, code: 'AUTH_SIGNATURE_MISMATCH' },
        );
      });
    }
  }
});
