/**
 * `card-issuing-sdk/reveal` outside the page: the key (Web Crypto, private half not extractable, public half the
 * base64url SPKI the API takes), the decryption of what the service (the SDK's server-side encryption, and jose,
 * independently) seals to it, its refusals, and the checks each side of the frame runs on messages.
 */
import { CompactEncrypt, importSPKI } from 'jose';
import { describe, expect, it } from 'vitest';
import { CardDetailsDecryptionError, CardDetailsInvalidError, PrivateKeyInvalidError } from 'card-issuing-sdk';
import { encryptCardDetails, importPublicKey } from 'card-issuing-sdk/server';
import {
  createRevealKey,
  isRevealFrameMessage,
  isRevealHostMessage,
  revealCardDetails,
  type RevealFrameMessage,
} from 'card-issuing-sdk/reveal';

const details = {
  pan: '4111111111111111',
  expiryMonth: 7,
  expiryYear: 2031,
  cvv: '987',
  cardholderName: 'MARY JACKSON',
};

/** jose's public key from the base64url SPKI. */
const joseKey = (spki: string) =>
  importSPKI(
    `-----BEGIN PUBLIC KEY-----\n${Buffer.from(spki, 'base64url').toString('base64')}\n-----END PUBLIC KEY-----`,
    'RSA-OAEP-256',
  );

describe('createRevealKey', () => {
  it('makes an RSA-OAEP-256 pair whose private key cannot be exported, and the public key as the API takes it', async () => {
    const key = await createRevealKey();
    expect(key.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
    // The server side reads it as the publicKey query parameter (2048 bits).
    const imported = (await importPublicKey(key.publicKey)) as CryptoKey;
    expect((imported.algorithm as RsaHashedKeyAlgorithm).modulusLength).toBe(2048);
    expect(key.privateKey.extractable).toBe(false);
    expect(key.privateKey.usages).toEqual(['decrypt']);
    await expect(crypto.subtle.exportKey('pkcs8', key.privateKey)).rejects.toThrow();
    await expect(crypto.subtle.exportKey('jwk', key.privateKey)).rejects.toThrow();
  });
});

describe('revealCardDetails', () => {
  it("decrypts what the SDK's server side and jose seal to the public key", async () => {
    const key = await createRevealKey();
    await expect(revealCardDetails(await encryptCardDetails(details, key.publicKey), key)).resolves.toEqual(details);
    const byJose = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(details)))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM' })
      .encrypt(await joseKey(key.publicKey));
    await expect(revealCardDetails(byJose, key.privateKey)).resolves.toEqual(details);
  });

  it('refuses another key, a tampered JWE, another form, a plaintext that is no card, and a key that is not one', async () => {
    const [key, other] = await Promise.all([createRevealKey(), createRevealKey()]);
    const jwe = await encryptCardDetails(details, key.publicKey);
    await expect(revealCardDetails(jwe, other)).rejects.toBeInstanceOf(CardDetailsDecryptionError);
    const parts = jwe.split('.');
    // The first character carries the top six bits of the first byte: another one changes the ciphertext.
    parts[3] = `${parts[3]!.startsWith('A') ? 'B' : 'A'}${parts[3]!.slice(1)}`;
    await expect(revealCardDetails(parts.join('.'), key)).rejects.toBeInstanceOf(CardDetailsDecryptionError);
    await expect(revealCardDetails('a.b.c', key)).rejects.toBeInstanceOf(CardDetailsDecryptionError);
    const notACard = await encryptCardDetails({ ...details, pan: '4111111111111112' }, key.publicKey);
    const error = await revealCardDetails(notACard, key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardDetailsInvalidError);
    expect(JSON.stringify(error)).not.toContain('4111111111111112');
    const signing = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    await expect(revealCardDetails(jwe, signing)).rejects.toBeInstanceOf(PrivateKeyInvalidError);
  });
});

describe('the messages between page and frame', () => {
  it('the frame takes only a reveal request: a JWE, known fields, plain CSS values', () => {
    const ok = { type: 'card-reveal:reveal', jwe: 'a.b.c.d.e', fields: ['number', 'cvv'], style: { color: '#222' } };
    expect(isRevealHostMessage(ok)).toBe(true);
    expect(isRevealHostMessage({ ...ok, fields: ['number', 'pin'] })).toBe(false);
    expect(isRevealHostMessage({ ...ok, style: { color: 'red', position: 'fixed' } })).toBe(false);
    expect(isRevealHostMessage({ ...ok, style: { background: 'url(https://x.test/leak)' } })).toBe(false);
    expect(isRevealHostMessage({ ...ok, style: { color: 'red;background:url(x)' } })).toBe(false);
    expect(isRevealHostMessage({ ...ok, jwe: 42 })).toBe(false);
    expect(isRevealHostMessage({ ...ok, type: 'card-reveal:ready' })).toBe(false);
    expect(isRevealHostMessage('card-reveal:reveal')).toBe(false);
  });

  it('the page takes only the frame messages, in their shapes', () => {
    const key = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzFb1TCm59jW9Tpo4wCBB_8VmQM2nmk3nbX9';
    const valid: RevealFrameMessage[] = [
      { type: 'card-reveal:ready', publicKey: key },
      { type: 'card-reveal:revealed', fields: ['number', 'expiry', 'cvv', 'cardholder'] },
      { type: 'card-reveal:copied', field: 'cvv' },
      { type: 'card-reveal:resize', height: 120 },
      { type: 'card-reveal:error', code: 'CARD_DETAILS_DECRYPTION_FAILED', message: 'no' },
    ];
    for (const message of valid) expect(isRevealFrameMessage(message), message.type).toBe(true);
    for (const message of [
      { type: 'card-reveal:ready', publicKey: 'short' },
      { type: 'card-reveal:ready', publicKey: `${key}/+=` },
      { type: 'card-reveal:copied', field: 'pan' },
      { type: 'card-reveal:resize', height: Number.NaN },
      { type: 'card-reveal:revealed', fields: 'number' },
      { type: 'card-reveal:details', pan: details.pan },
      null,
    ])
      expect(isRevealFrameMessage(message), JSON.stringify(message)).toBe(false);
  });
});
