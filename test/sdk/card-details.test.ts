import { spawnSync } from 'node:child_process';
import { KeyObject, generateKeyPairSync, webcrypto } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { inspect } from 'node:util';
import forge from 'node-forge';
import * as jose from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARD_DETAILS_JWE_HEADER } from '../../sdk/src/card-details/jwe';
import {
  cardKeyBits,
  exportPublicKey,
  generateCardKeyPair,
  importPrivateKey,
  importPublicKey,
} from '../../sdk/src/card-details/keys';
import { decryptCardDetails } from '../../sdk/src/card-details/decrypt';
import { encryptCardDetails } from '../../sdk/src/card-details/encrypt';
import { isLuhnValid, luhnCheckDigit } from '../../sdk/src/luhn';
import {
  CardDetailsDecryptionError,
  CardDetailsInvalidError,
  PrivateKeyInvalidError,
  PublicKeyInvalidError,
} from '../../sdk/src/core/errors/classes';
import type { CardIssuingError } from '../../sdk/src/core/errors/base';
import type { CardDetails } from '../../sdk/generated/types.gen';
import { repoPath } from '../helpers/spec';

const details: CardDetails = {
  pan: '4000123412344246',
  expiryMonth: 11,
  expiryYear: 2029,
  cvv: '123',
  cardholderName: 'ADA LOVELACE',
};
const text = new TextEncoder();

/** Web Crypto key pairs, as generateCardKeyPair makes them where crypto.subtle exists (the extractable one for PEM tests). */
const pair = (await generateCardKeyPair({ extractable: true })) as CryptoKeyPair;
const sealedPair = (await generateCardKeyPair()) as CryptoKeyPair;
const otherPair = await generateCardKeyPair();

const toPem = (label: string, base64url: string) =>
  `-----BEGIN ${label}-----\n${base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;
const pemToBase64Url = (pem: string) =>
  pem
    .replace(/-----[^-]+-----|\s/g, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** node:crypto reads the CryptoKey and writes PKCS#8 and PKCS#1 PEM: formats from outside our code. */
const pem = (key: CryptoKey, type: 'pkcs8' | 'pkcs1') => KeyObject.from(key).export({ type, format: 'pem' }).toString();

/** Replaces one character of part `index` of a compact JWE with another valid base64url character. */
const tamper = (jwe: string, index: number, at = 10) => {
  const parts = jwe.split('.');
  const part = parts[index]!;
  const position = Math.min(at, part.length - 2);
  parts[index] = part.slice(0, position) + (part[position] === 'A' ? 'B' : 'A') + part.slice(position + 1);
  return parts.join('.');
};

const expectCode = async (
  promise: Promise<unknown>,
  type: new (...args: never[]) => CardIssuingError,
  code: string,
) => {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(type);
  expect((caught as CardIssuingError).code).toBe(code);
  return caught as CardIssuingError;
};

const joseEncrypt = async (
  publicKey: CryptoKey | KeyObject,
  header: jose.CompactJWEHeaderParameters = { ...CARD_DETAILS_JWE_HEADER },
) => new jose.CompactEncrypt(text.encode(JSON.stringify(details))).setProtectedHeader(header).encrypt(publicKey);

describe('card key pairs (Web Crypto)', () => {
  it('are native CryptoKeys for RSA-OAEP-256: 2048 bits by default, 4096 on request, other sizes refused', async () => {
    expect(pair.publicKey).toBeInstanceOf(CryptoKey);
    expect(pair.privateKey.algorithm).toMatchObject({
      name: 'RSA-OAEP',
      modulusLength: 2048,
      hash: { name: 'SHA-256' },
    });
    expect(cardKeyBits(pair)).toBe(2048);
    expect(cardKeyBits(await generateCardKeyPair({ bits: 4096 }))).toBe(4096);
    await expectCode(generateCardKeyPair({ bits: 1024 as 2048 }), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
  });

  it('keep the private key inside Web Crypto unless asked: not extractable by default', async () => {
    expect(sealedPair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('pkcs8', sealedPair.privateKey)).rejects.toThrow();
    expect(pair.privateKey.extractable).toBe(true);
    expect(pem(pair.privateKey, 'pkcs8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('export the public key as base64url DER SubjectPublicKeyInfo that other tools read', async () => {
    const exported = await exportPublicKey(pair);
    expect(exported).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(exported).toBe(await exportPublicKey(pair.publicKey));
    // jose imports it as an SPKI key, and node:crypto reads the same modulus.
    const key = await jose.importSPKI(toPem('PUBLIC KEY', exported), 'RSA-OAEP-256', { extractable: true });
    expect(pemToBase64Url(await jose.exportSPKI(key))).toBe(exported);
    expect(KeyObject.from(pair.publicKey).export({ type: 'spki', format: 'der' }).toString('base64url')).toBe(exported);
    // And it reads back into the same key.
    expect(await exportPublicKey(await importPublicKey(exported))).toBe(exported);
  });
});

describe('JOSE interop (Web Crypto)', () => {
  it('our encryptCardDetails is decrypted by jose compactDecrypt, with our CryptoKey and with the PEM', async () => {
    const jwe = await encryptCardDetails(details, await exportPublicKey(pair));
    for (const key of [pair.privateKey, await jose.importPKCS8(pem(pair.privateKey, 'pkcs8'), 'RSA-OAEP-256')]) {
      const { plaintext, protectedHeader } = await jose.compactDecrypt(jwe, key);
      expect(protectedHeader).toEqual(CARD_DETAILS_JWE_HEADER);
      expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(details);
    }
    // Fresh content key and IV every time.
    const again = await encryptCardDetails(details, pair);
    expect(again.split('.')[1]).not.toBe(jwe.split('.')[1]);
    expect(again.split('.')[2]).not.toBe(jwe.split('.')[2]);
  });

  it('a jose CompactEncrypt JWE is decrypted by our decryptCardDetails, with every form of the private key', async () => {
    const jwe = await joseEncrypt(
      await jose.importSPKI(toPem('PUBLIC KEY', await exportPublicKey(pair)), 'RSA-OAEP-256'),
    );
    expect(await decryptCardDetails(jwe, pair)).toEqual(details);
    expect(await decryptCardDetails(jwe, pair.privateKey)).toEqual(details);
    expect(await decryptCardDetails(jwe, pem(pair.privateKey, 'pkcs8'))).toEqual(details);
    // PKCS#1, which Web Crypto cannot import: converted by forge, then decrypted natively.
    expect(await decryptCardDetails(jwe, pem(pair.privateKey, 'pkcs1'))).toEqual(details);
    // A node-forge key object (what older versions of this SDK handed out).
    expect(await decryptCardDetails(jwe, forge.pki.privateKeyFromPem(pem(pair.privateKey, 'pkcs1')))).toEqual(details);
    // And the non-extractable pair, which only Web Crypto can use.
    const sealed = await joseEncrypt(sealedPair.publicKey);
    expect(await decryptCardDetails(sealed, sealedPair)).toEqual(details);
  });

  it('keys made by jose work with our helpers both ways', async () => {
    const { publicKey, privateKey } = await jose.generateKeyPair('RSA-OAEP-256', {
      modulusLength: 2048,
      extractable: true,
    });
    const spki = pemToBase64Url(await jose.exportSPKI(publicKey));
    const jwe = await encryptCardDetails(details, spki);
    expect(JSON.parse(new TextDecoder().decode((await jose.compactDecrypt(jwe, privateKey)).plaintext))).toEqual(
      details,
    );
    expect(
      JSON.parse(
        new TextDecoder().decode(
          (await jose.compactDecrypt(await encryptCardDetails(details, publicKey as CryptoKey), privateKey)).plaintext,
        ),
      ),
    ).toEqual(details);
    const theirs = await joseEncrypt(publicKey as CryptoKey);
    expect(await decryptCardDetails(theirs, await jose.exportPKCS8(privateKey))).toEqual(details);
    expect(await decryptCardDetails(theirs, privateKey as CryptoKey)).toEqual(details);
  });

  it('refuses a JWE of another algorithm (RSA-OAEP with SHA-1) by its header, before any key is tried', async () => {
    const jwe = await joseEncrypt(await jose.importSPKI(toPem('PUBLIC KEY', await exportPublicKey(pair)), 'RSA-OAEP'), {
      alg: 'RSA-OAEP',
      enc: 'A256GCM',
    });
    const error = await expectCode(
      decryptCardDetails(jwe, pair),
      CardDetailsDecryptionError,
      'CARD_DETAILS_DECRYPTION_FAILED',
    );
    expect(error.message).toMatch(/JWE header/);
  });

  it('refuses a JWE with another content encryption (A128GCM) by its header', async () => {
    const jwe = await joseEncrypt(pair.publicKey, { alg: 'RSA-OAEP-256', enc: 'A128GCM' });
    const error = await expectCode(
      decryptCardDetails(jwe, pair),
      CardDetailsDecryptionError,
      'CARD_DETAILS_DECRYPTION_FAILED',
    );
    expect(error.message).toMatch(/JWE header/);
  });
});

describe('decryption failures', () => {
  let jwe: string;
  beforeAll(async () => {
    jwe = await encryptCardDetails(details, pair);
  });

  it('a wrong private key is CARD_DETAILS_DECRYPTION_FAILED', async () => {
    await expectCode(decryptCardDetails(jwe, otherPair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it.each([
    ['protected header', 0],
    ['encrypted key', 1],
    ['IV', 2],
    ['ciphertext', 3],
    ['tag', 4],
  ])('a tampered %s is CARD_DETAILS_DECRYPTION_FAILED, and jose refuses it too', async (_, index) => {
    const tampered = tamper(jwe, index, index === 0 ? 5 : 10);
    await expectCode(decryptCardDetails(tampered, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
    await expect(jose.compactDecrypt(tampered, pair.privateKey)).rejects.toThrow();
  });

  it('a header tampered into another valid header fails the tag (the header is the AAD)', async () => {
    const [, ...rest] = jwe.split('.');
    const header = Buffer.from(JSON.stringify({ ...CARD_DETAILS_JWE_HEADER, kid: 'x' })).toString('base64url');
    await expectCode(
      decryptCardDetails([header, ...rest].join('.'), pair),
      CardDetailsDecryptionError,
      'CARD_DETAILS_DECRYPTION_FAILED',
    );
  });

  it('a JWE whose content key is not 256 bits is refused, although the tag is right', async () => {
    // Made by hand with node:crypto: a 128-bit content key wrapped for our key, AES-128-GCM under the A256GCM header.
    const { createCipheriv, publicEncrypt, randomBytes, constants } = await import('node:crypto');
    const header = Buffer.from(JSON.stringify(CARD_DETAILS_JWE_HEADER)).toString('base64url');
    const key = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-128-gcm', key, iv).setAAD(Buffer.from(header, 'ascii'));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(details)), cipher.final()]);
    const wrapped = publicEncrypt(
      { key: KeyObject.from(pair.publicKey), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      key,
    );
    const forged = [header, wrapped, iv, ciphertext, cipher.getAuthTag()]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    await expectCode(decryptCardDetails(forged, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
  });

  it.each(['', 'abc', 'a.b.c', 'a.b.c.d.e', 'x.y.z.w.v', 'eyJ9.a.b.c.d'])(
    'malformed input %# is CARD_DETAILS_DECRYPTION_FAILED',
    async (input) => {
      await expectCode(decryptCardDetails(input, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
    },
  );

  it('a JWE with a part added or its dots replaced is CARD_DETAILS_DECRYPTION_FAILED', async () => {
    for (const input of [`${jwe}.x`, jwe.replace(/\./g, ',')]) {
      await expectCode(decryptCardDetails(input, pair), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
    }
  });

  it('plaintext that is not valid CardDetails is CARD_DETAILS_INVALID, naming paths and never values', async () => {
    const badLuhn = await encryptCardDetails({ ...details, pan: '4000123412344247' }, pair);
    const luhn = await expectCode(decryptCardDetails(badLuhn, pair), CardDetailsInvalidError, 'CARD_DETAILS_INVALID');
    expect(luhn.errors).toEqual([{ path: 'pan', message: 'Fails the Luhn check' }]);
    const badSchema = await encryptCardDetails({ ...details, cvv: '12x' } as CardDetails, pair);
    const schema = await expectCode(
      decryptCardDetails(badSchema, pair),
      CardDetailsInvalidError,
      'CARD_DETAILS_INVALID',
    );
    expect(schema.errors.map((e) => e.path)).toEqual(['cvv']);
    // zod/mini has no messages of its own; the SDK's are English, not "Invalid input".
    expect(schema.errors[0]!.message).toMatch(/^Invalid string: must match pattern/);
    for (const error of [luhn, schema]) {
      const seen = `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${inspect(error, { depth: 10 })}`;
      for (const secret of ['4000123412344247', '12x', 'ADA LOVELACE']) expect(seen).not.toContain(secret);
    }
  });

  it('no failure leaks key material or plaintext', async () => {
    const keyChunk = pem(pair.privateKey, 'pkcs8').split('\n')[5]!;
    const d = (await crypto.subtle.exportKey('jwk', pair.privateKey)).d!;
    const failures = [];
    for (const i of [0, 1, 3, 4])
      failures.push(
        await expectCode(
          decryptCardDetails(tamper(jwe, i), pair),
          CardDetailsDecryptionError,
          'CARD_DETAILS_DECRYPTION_FAILED',
        ),
      );
    failures.push(
      await expectCode(
        decryptCardDetails(jwe, otherPair),
        CardDetailsDecryptionError,
        'CARD_DETAILS_DECRYPTION_FAILED',
      ),
    );
    for (const error of failures) {
      const seen = `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${inspect(error, { depth: 10 })}`;
      for (const secret of [details.pan, '"123"', keyChunk, d.slice(0, 32)]) expect(seen).not.toContain(secret);
      expect(error.cause).toBeUndefined();
    }
  });
});

describe('weak and foreign keys', () => {
  const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const weakSpki = weak.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url');
  const weakPem = weak.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it('a 1024-bit RSA key is refused with PUBLIC_KEY_INVALID (export, encrypt) and PRIVATE_KEY_INVALID (decrypt)', async () => {
    const weakCrypto = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['encrypt', 'decrypt'],
    );
    await expectCode(exportPublicKey(weakCrypto), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    await expectCode(encryptCardDetails(details, weakSpki), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    await expectCode(encryptCardDetails(details, weakCrypto.publicKey), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    await expect(importPublicKey(weakSpki)).rejects.toThrow(/1024 bits; at least 2048/);
    const jwe = await encryptCardDetails(details, pair);
    await expectCode(decryptCardDetails(jwe, weakCrypto.privateKey), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    await expectCode(decryptCardDetails(jwe, weakPem), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
  });

  it('a private key made for another hash is refused by its algorithm, not tried; its public key is re-imported', async () => {
    const sha1 = await crypto.subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-1' },
      true,
      ['encrypt', 'decrypt'],
    );
    await expect(importPrivateKey(sha1.privateKey)).rejects.toThrow(/RSA-OAEP with SHA-256/);
    // A public key of another RSA algorithm is the same RSA key: exported and used for RSA-OAEP-256.
    const jwe = await encryptCardDetails(details, sha1.publicKey);
    const { plaintext } = await jose.compactDecrypt(jwe, KeyObject.from(sha1.privateKey));
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(details);
  });

  it.each([
    [
      'EC P-256',
      generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .publicKey.export({ type: 'spki', format: 'der' })
        .toString('base64url'),
    ],
    ['Ed25519', generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' }).toString('base64url')],
    ['not base64url', 'MIIB+IjAN/Bg=='],
    ['random bytes', Buffer.from('not a key at all, just text').toString('base64url')],
    [
      'truncated DER',
      KeyObject.from(pair.publicKey).export({ type: 'spki', format: 'der' }).toString('base64url').slice(0, 100),
    ],
    [
      'DER with trailing bytes',
      `${KeyObject.from(pair.publicKey).export({ type: 'spki', format: 'der' }).toString('base64url')}AAAA`,
    ],
    ['empty', ''],
  ])('a %s public key is refused with PUBLIC_KEY_INVALID', async (_, spki) => {
    const error = await expectCode(encryptCardDetails(details, spki), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
    expect(error.status).toBeUndefined();
  });

  it('a non-RSA or malformed private key is refused with PRIVATE_KEY_INVALID', async () => {
    const ecPem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const jwe = await encryptCardDetails(details, pair);
    await expectCode(decryptCardDetails(jwe, ecPem), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    await expectCode(decryptCardDetails(jwe, 'not a pem'), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    await expectCode(decryptCardDetails(jwe, {} as CryptoKey), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    await expectCode(decryptCardDetails(jwe, pair.publicKey), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
  });
});

describe('without crypto.subtle (jsdom, React Native): node-forge does it all', () => {
  // The same functions, in a runtime that has getRandomValues but no Web Crypto: the card-details module reads
  // crypto.subtle at each call. jose needs Web Crypto, so its side runs before and after, with it restored.
  const withoutSubtle = async <T>(fn: () => Promise<T>): Promise<T> => {
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array) });
    try {
      expect(globalThis.crypto.subtle).toBeUndefined();
      return await fn();
    } finally {
      vi.unstubAllGlobals();
    }
  };
  afterEach(() => vi.unstubAllGlobals());

  it("makes forge key pairs and round-trips JWEs that jose reads, and reads jose's", async () => {
    const theirs = await joseEncrypt(pair.publicKey);
    const { forgePair, ours, spki, forgePem, readTheirs } = await withoutSubtle(async () => {
      const made = await generateCardKeyPair();
      const publicKey = await exportPublicKey(made);
      return {
        forgePair: made,
        spki: publicKey,
        ours: await encryptCardDetails(details, publicKey),
        forgePem: pem(pair.privateKey, 'pkcs1'),
        readTheirs: [
          await decryptCardDetails(theirs, pem(pair.privateKey, 'pkcs8')),
          await decryptCardDetails(theirs, pem(pair.privateKey, 'pkcs1')),
        ],
      };
    });
    // Forge keys, not CryptoKeys: the forge path made them.
    expect(forgePair.publicKey).not.toBeInstanceOf(CryptoKey);
    expect(cardKeyBits(forgePair)).toBe(2048);
    expect(typeof (forgePair.privateKey as forge.pki.rsa.PrivateKey).d.toString(16)).toBe('string');
    expect(readTheirs).toEqual([details, details]);
    expect(forgePem).toMatch(/RSA PRIVATE KEY/);
    // jose (Web Crypto) decrypts what the forge path encrypted, with the forge pair's private key.
    const privatePem = forge.pki.privateKeyInfoToPem(
      forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(forgePair.privateKey as forge.pki.rsa.PrivateKey)),
    );
    const { plaintext, protectedHeader } = await jose.compactDecrypt(
      ours,
      await jose.importPKCS8(privatePem, 'RSA-OAEP-256'),
    );
    expect(protectedHeader).toEqual(CARD_DETAILS_JWE_HEADER);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(details);
    // The forge SPKI is the one node:crypto reads.
    expect(
      KeyObject.from(
        (await jose.importSPKI(toPem('PUBLIC KEY', spki), 'RSA-OAEP-256', { extractable: true })) as CryptoKey,
      ).asymmetricKeyDetails?.modulusLength,
    ).toBe(2048);
    // A forge pair still works once Web Crypto is back (converted to CryptoKeys).
    expect(await decryptCardDetails(ours, forgePair)).toEqual(details);
  });

  it('refuses tampering, other keys and weak keys with the same typed errors', async () => {
    const jwe = await encryptCardDetails(details, pair);
    const weakSpki = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64url');
    const privatePem = pem(pair.privateKey, 'pkcs8');
    const otherPem = pem((await generateCardKeyPair({ extractable: true })).privateKey as CryptoKey, 'pkcs8');
    const spki = await exportPublicKey(pair);
    await withoutSubtle(async () => {
      expect(await decryptCardDetails(jwe, privatePem)).toEqual(details);
      for (const index of [0, 1, 2, 3, 4]) {
        await expectCode(
          decryptCardDetails(tamper(jwe, index, index === 0 ? 5 : 10), privatePem),
          CardDetailsDecryptionError,
          'CARD_DETAILS_DECRYPTION_FAILED',
        );
      }
      await expectCode(decryptCardDetails(jwe, otherPem), CardDetailsDecryptionError, 'CARD_DETAILS_DECRYPTION_FAILED');
      await expectCode(encryptCardDetails(details, weakSpki), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
      await expectCode(encryptCardDetails(details, 'AAAA'), PublicKeyInvalidError, 'PUBLIC_KEY_INVALID');
      const badLuhn = await encryptCardDetails({ ...details, pan: '4000123412344247' }, spki);
      await expectCode(decryptCardDetails(badLuhn, privatePem), CardDetailsInvalidError, 'CARD_DETAILS_INVALID');
      // A CryptoKey cannot be used without Web Crypto: a clear error, not a TypeError.
      await expectCode(decryptCardDetails(jwe, pair), PrivateKeyInvalidError, 'PRIVATE_KEY_INVALID');
    });
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
    for (const partial of ['7992739871', '411111111111111', '0'])
      expect(isLuhnValid(partial + luhnCheckDigit(partial))).toBe(true);
  });
});

describe('node-forge is loaded only when needed, and only our modules of it', () => {
  // The tests above import node-forge whole, which would hide a module sdk/src/card-details/forge.ts forgot to load, or a
  // path that loads forge where Web Crypto would do. Each case runs in a fresh process.
  const run = (body: string) => {
    const script = `
      import { createRequire } from 'node:module';
      import { generateKeyPairSync } from 'node:crypto';
      import { decryptCardDetails, exportPublicKey, generateCardKeyPair } from ${JSON.stringify(repoPath('sdk/src/index.ts'))};
      import { encryptCardDetails } from ${JSON.stringify(repoPath('sdk/src/server.ts'))};
      const details = ${JSON.stringify(details)};
      const same = (r) => JSON.stringify(r) === JSON.stringify(details);
      const native = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const spki = native.publicKey.export({ type: 'spki', format: 'der' }).toString('base64url');
      const pemOf = (type) => native.privateKey.export({ type, format: 'pem' }).toString();
      ${body}
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('node-forge')).map((f) => f.split('/').pop()).sort();
      console.log(JSON.stringify({ ok, loaded }));
    `;
    const file = repoPath(`test/sdk/.forge-isolation-${process.pid}-${Math.random().toString(36).slice(2)}.tmp.mts`);
    writeFileSync(file, script);
    try {
      const child = spawnSync('npx', ['tsx', file], { cwd: repoPath('.'), encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(child.stdout.trim().split('\n').pop()!) as { ok: boolean; loaded: string[] };
    } finally {
      rmSync(file, { force: true });
    }
  };

  it('with Web Crypto: key pair, export, encrypt, decrypt with the pair and PKCS#8 load no node-forge at all', () => {
    const { ok, loaded } = run(`
      const pair = await generateCardKeyPair();
      const ok = same(await decryptCardDetails(await encryptCardDetails(details, await exportPublicKey(pair)), pair))
        && same(await decryptCardDetails(await encryptCardDetails(details, spki), pemOf('pkcs8')));
    `);
    expect(ok).toBe(true);
    expect(loaded).toEqual([]);
  });

  it('with Web Crypto, a PKCS#1 PEM loads our forge modules to convert it, and nothing else of forge', () => {
    const { ok, loaded } = run(
      `const ok = same(await decryptCardDetails(await encryptCardDetails(details, spki), pemOf('pkcs1')));`,
    );
    expect(ok).toBe(true);
    expect(loaded).toContain('rsa.js');
    // The whole package (index.js, which loads tls, ssh, ...) was not loaded.
    expect(loaded).not.toContain('index.js');
    expect(loaded).not.toContain('tls.js');
  });

  it('without crypto.subtle: generates, exports, encrypts and decrypts (pair and PEM) with our forge modules only', () => {
    const { ok, loaded } = run(`
      const getRandomValues = (a) => globalThis.crypto.getRandomValues(a);
      const real = globalThis.crypto;
      Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues: (a) => real.getRandomValues(a) }, configurable: true });
      if (globalThis.crypto.subtle !== undefined) throw new Error('crypto.subtle is still there');
      const pair = await generateCardKeyPair();
      if (typeof pair.publicKey.n?.bitLength !== 'function') throw new Error('not a forge key pair');
      const results = [await decryptCardDetails(await encryptCardDetails(details, await exportPublicKey(pair)), pair)];
      for (const type of ['pkcs8', 'pkcs1']) results.push(await decryptCardDetails(await encryptCardDetails(details, spki), pemOf(type)));
      const ok = results.every(same);
    `);
    expect(ok).toBe(true);
    expect(loaded).toContain('aes.js');
    expect(loaded).not.toContain('index.js');
    expect(loaded).not.toContain('tls.js');
  });
});
