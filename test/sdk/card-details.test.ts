import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { inspect } from 'node:util';
import forge from 'node-forge';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import {
  CARD_DETAILS_JWE_HEADER,
  decryptCardDetails,
  encryptCardDetails,
  exportPublicKey,
  generateCardKeyPair,
  importPublicKey,
  isLuhnValid,
  luhnCheckDigit,
} from '../../sdk/src/card-details';
import { CardDetailsDecryptionError, CardDetailsInvalidError, CardIssuingError, PrivateKeyInvalidError, PublicKeyInvalidError } from '../../sdk/src/errors';
import type { CardDetails } from '../../sdk/generated/types.gen';
import { repoPath } from '../helpers/spec';

const details: CardDetails = { pan: '4000123412344246', expiryMonth: 11, expiryYear: 2029, cvv: '123', cardholderName: 'ADA LOVELACE' };
// Our key pairs are node-forge keys; the package types describe them structurally.
const forgePair = (p: ReturnType<typeof generateCardKeyPair>) => p as forge.pki.rsa.KeyPair;
const pair = forgePair(generateCardKeyPair());
const otherPair = forgePair(generateCardKeyPair());

const toPem = (label: string, base64url: string) =>
  `-----BEGIN ${label}-----\n${base64url.replace(/-/g, '+').replace(/_/g, '/').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;
const pemToBase64Url = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const pkcs8Pem = (privateKey: forge.pki.rsa.PrivateKey) => forge.pki.privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(privateKey)));

/** Replaces one character of part `index` of a compact JWE with another valid base64url character. */
const tamper = (jwe: string, index: number, at = 10) => {
  const parts = jwe.split('.');
  const part = parts[index]!;
  const position = Math.min(at, part.length - 2);
  parts[index] = part.slice(0, position) + (part[position] === 'A' ? 'B' : 'A') + part.slice(position + 1);
  return parts.join('.');
};

const expectCode = (fn: () => unknown, type: new (...args: never[]) => CardIssuingError, code: string) => {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  expect((caught as CardIssuingError).code).toBe(code);
  return caught as CardIssuingError;
};

describe('card key pairs', () => {
  it('generates 2048-bit keys by default and 4096 on request, and refuses other sizes', () => {
    expect(pair.publicKey.n.bitLength()).toBe(2048);
    expect(generateCardKeyPair({ bits: 4096 }).publicKey.n.bitLength()).toBe(4096);
    expectCode(() => generateCardKeyPair({ bits: 1024 as 2048 }), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
  });

  it('exports the public key as base64url DER SubjectPublicKeyInfo that other tools read', async () => {
    const exported = exportPublicKey(pair);
    expect(exported).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(exported).toBe(exportPublicKey(pair.publicKey));
    // jose (Web Crypto) imports it as an SPKI key.
    const key = await jose.importSPKI(toPem('PUBLIC KEY', exported), 'RSA-OAEP-256', { extractable: true });
    expect(pemToBase64Url(await jose.exportSPKI(key))).toBe(exported);
    // And it reads back into the same key.
    expect((importPublicKey(exported) as forge.pki.rsa.PublicKey).n.equals(pair.publicKey.n)).toBe(true);
  });
});

describe('JOSE interop', () => {
  it('our encryptCardDetails is decrypted by jose compactDecrypt', async () => {
    const jwe = encryptCardDetails(details, exportPublicKey(pair));
    const privateKey = await jose.importPKCS8(pkcs8Pem(pair.privateKey), 'RSA-OAEP-256');
    const { plaintext, protectedHeader } = await jose.compactDecrypt(jwe, privateKey);
    expect(protectedHeader).toEqual(CARD_DETAILS_JWE_HEADER);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(details);
    // Fresh content key and IV every time.
    const again = encryptCardDetails(details, pair);
    expect(again.split('.')[1]).not.toBe(jwe.split('.')[1]);
    expect(again.split('.')[2]).not.toBe(jwe.split('.')[2]);
  });

  it('a jose CompactEncrypt JWE is decrypted by our decryptCardDetails', async () => {
    const publicKey = await jose.importSPKI(toPem('PUBLIC KEY', exportPublicKey(pair)), 'RSA-OAEP-256');
    const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details)))
      .setProtectedHeader({ ...CARD_DETAILS_JWE_HEADER })
      .encrypt(publicKey);
    expect(decryptCardDetails(jwe, pair)).toEqual(details);
    expect(decryptCardDetails(jwe, pair.privateKey)).toEqual(details);
    expect(decryptCardDetails(jwe, pkcs8Pem(pair.privateKey))).toEqual(details);
    expect(decryptCardDetails(jwe, forge.pki.privateKeyToPem(pair.privateKey))).toEqual(details);
  });

  it('keys made by jose work with our helpers both ways', async () => {
    const { publicKey, privateKey } = await jose.generateKeyPair('RSA-OAEP-256', { modulusLength: 2048, extractable: true });
    const spki = pemToBase64Url(await jose.exportSPKI(publicKey));
    const jwe = encryptCardDetails(details, spki);
    expect(JSON.parse(new TextDecoder().decode((await jose.compactDecrypt(jwe, privateKey)).plaintext))).toEqual(details);
    const theirs = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details))).setProtectedHeader({ ...CARD_DETAILS_JWE_HEADER }).encrypt(publicKey);
    expect(decryptCardDetails(theirs, await jose.exportPKCS8(privateKey))).toEqual(details);
  });

  it('refuses a JWE of another algorithm (RSA-OAEP with SHA-1) rather than guessing', async () => {
    const publicKey = await jose.importSPKI(toPem('PUBLIC KEY', exportPublicKey(pair)), 'RSA-OAEP');
    const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details))).setProtectedHeader({ alg: 'RSA-OAEP', enc: 'A256GCM' }).encrypt(publicKey);
    expectCode(() => decryptCardDetails(jwe, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
    // Refused by the header check, before any key is tried.
    expect(() => decryptCardDetails(jwe, pair)).toThrow(/JWE header/);
  });

  it('refuses a JWE with another content encryption (A128GCM) by its header', async () => {
    const publicKey = await jose.importSPKI(toPem('PUBLIC KEY', exportPublicKey(pair)), 'RSA-OAEP-256');
    const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(JSON.stringify(details))).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A128GCM' }).encrypt(publicKey);
    expect(() => decryptCardDetails(jwe, pair)).toThrow(CardDetailsDecryptionError);
    expect(() => decryptCardDetails(jwe, pair)).toThrow(/JWE header/);
  });
});

describe('decryption failures', () => {
  const jwe = encryptCardDetails(details, pair);

  it('a wrong private key is CARD_DETAILS_DECRYPTION_FAILED', () => {
    expectCode(() => decryptCardDetails(jwe, otherPair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it.each([
    ['protected header', 0],
    ['encrypted key', 1],
    ['IV', 2],
    ['ciphertext', 3],
    ['tag', 4],
  ])('a tampered %s is CARD_DETAILS_DECRYPTION_FAILED', (_, index) => {
    // Our own check first, then jose agrees that the tampered JWE is invalid.
    expectCode(() => decryptCardDetails(tamper(jwe, index, index === 0 ? 5 : 10), pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it('a header tampered into another valid header fails the tag (the header is the AAD)', () => {
    const [, ...rest] = jwe.split('.');
    const header = Buffer.from(JSON.stringify({ ...CARD_DETAILS_JWE_HEADER, kid: 'x' })).toString('base64url');
    expectCode(() => decryptCardDetails([header, ...rest].join('.'), pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it.each(['', 'abc', 'a.b.c', 'a.b.c.d.e', `${jwe}.x`, jwe.replace(/\./g, ',')])('malformed input %# is CARD_DETAILS_DECRYPTION_FAILED', (input) => {
    expectCode(() => decryptCardDetails(input, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it('plaintext that is not valid CardDetails is CARD_DETAILS_INVALID, naming paths and never values', () => {
    const badLuhn = encryptCardDetails({ ...details, pan: '4000123412344247' }, pair);
    const luhn = expectCode(() => decryptCardDetails(badLuhn, pair), CardDetailsInvalidError, 'CARD_DETAILS_INVALID');
    expect(luhn.errors).toEqual([{ path: 'pan', message: 'Fails the Luhn check' }]);
    const badSchema = encryptCardDetails({ ...details, cvv: '12x' } as CardDetails, pair);
    const schema = expectCode(() => decryptCardDetails(badSchema, pair), CardDetailsInvalidError, 'CARD_DETAILS_INVALID');
    expect(schema.errors.map((e) => e.path)).toEqual(['cvv']);
    for (const error of [luhn, schema]) {
      const seen = `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${inspect(error, { depth: 10 })}`;
      for (const secret of ['4000123412344247', '12x', 'ADA LOVELACE']) expect(seen).not.toContain(secret);
    }
  });

  it('no failure leaks key material or plaintext', () => {
    const pem = pkcs8Pem(pair.privateKey);
    const keyChunk = pem.split('\n')[5]!;
    const failures = [0, 1, 3, 4].map((i) => expectCode(() => decryptCardDetails(tamper(jwe, i), pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED'));
    failures.push(expectCode(() => decryptCardDetails(jwe, otherPair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED'));
    for (const error of failures) {
      const seen = `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${inspect(error, { depth: 10 })}`;
      for (const secret of [details.pan, details.cvv === '123' ? '"123"' : details.cvv, keyChunk, pair.privateKey.d.toString(16).slice(0, 32)]) {
        expect(seen).not.toContain(secret);
      }
      expect(error.cause).toBeUndefined();
    }
  });
});

describe('weak and foreign keys', () => {
  const weak = forge.pki.rsa.generateKeyPair({ bits: 1024 });
  const weakSpki = forge.util.encode64(forge.asn1.toDer(forge.pki.publicKeyToAsn1(weak.publicKey)).getBytes()).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

  it('a 1024-bit RSA key is refused with PUBLIC_KEY_INVALID (export, encrypt) and PRIVATE_KEY_INVALID (decrypt)', () => {
    expectCode(() => exportPublicKey(weak), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    expectCode(() => encryptCardDetails(details, weakSpki), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    expectCode(() => encryptCardDetails(details, weak.publicKey), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    expect(() => importPublicKey(weakSpki)).toThrow(/1024 bits; at least 2048/);
    expectCode(() => decryptCardDetails(encryptCardDetails(details, pair), weak.privateKey), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
  });

  it.each([
    ['EC P-256', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64url')],
    ['Ed25519', generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64url')],
    ['not base64url', 'MIIB+IjAN/Bg=='],
    ['random bytes', Buffer.from('not a key at all, just text').toString('base64url')],
    ['truncated DER', exportPublicKey(pair).slice(0, 100)],
    ['DER with trailing bytes', exportPublicKey(pair) + 'AAAA'],
    ['empty', ''],
  ])('a %s public key is refused with PUBLIC_KEY_INVALID', (_, spki) => {
    const error = expectCode(() => encryptCardDetails(details, spki), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    expect(error.status).toBeUndefined();
  });

  it('a non-RSA or malformed private key is refused with PRIVATE_KEY_INVALID', () => {
    const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const jwe = encryptCardDetails(details, pair);
    expectCode(() => decryptCardDetails(jwe, ecPem), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    expectCode(() => decryptCardDetails(jwe, 'not a pem'), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    expectCode(() => decryptCardDetails(jwe, {} as forge.pki.rsa.PrivateKey), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
  });
});

describe('Luhn', () => {
  it('checks and completes PANs', () => {
    expect(isLuhnValid('4000123412344246')).toBe(true);
    // The spec's CardDetails example PAN fails Luhn (reported to the lead).
    expect(isLuhnValid('4000123412344242')).toBe(false);
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('4111 1111')).toBe(false);
    expect(luhnCheckDigit('400012341234424')).toBe('6');
    for (const partial of ['7992739871', '411111111111111', '0']) expect(isLuhnValid(partial + luhnCheckDigit(partial))).toBe(true);
  });
});

describe('in a process that loads only our forge modules', () => {
  // The tests above import node-forge whole, which would hide a module sdk/src/forge.ts forgot to load.
  it('generates, exports, encrypts and decrypts (key pair and PEM) with nothing else of forge loaded', () => {
    const script = `
      import { generateKeyPairSync } from 'node:crypto';
      import { decryptCardDetails, encryptCardDetails, exportPublicKey, generateCardKeyPair } from ${JSON.stringify(repoPath('sdk/src/card-details.ts'))};
      const details = ${JSON.stringify(details)};
      const pair = generateCardKeyPair();
      const ours = decryptCardDetails(encryptCardDetails(details, exportPublicKey(pair)), pair);
      const native = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const spki = native.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url');
      const results = ['pkcs8', 'pkcs1'].map((type) =>
        decryptCardDetails(encryptCardDetails(details, spki), native.privateKey.export({ type, format: 'pem' }).toString()));
      const loaded = Object.keys(require.cache ?? {}).filter((f) => f.includes('node-forge')).map((f) => f.split('/').pop()).sort();
      console.log(JSON.stringify({ ok: [ours, ...results].every((r) => JSON.stringify(r) === JSON.stringify(details)), loaded }));
    `;
    const file = repoPath('test/sdk/.forge-isolation.tmp.mts');
    writeFileSync(file, script.replace('require.cache ?? {}', "(await import('node:module')).createRequire(import.meta.url).cache"));
    try {
      const run = spawnSync('npx', ['tsx', file], { cwd: repoPath('.'), encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const { ok, loaded } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { ok: boolean; loaded: string[] };
      expect(ok).toBe(true);
      // Sanity: the whole package (index.js, which loads tls, ssh, ...) was not loaded.
      expect(loaded).not.toContain('index.js');
      expect(loaded).not.toContain('tls.js');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
