/**
 * The key pair of a screen that shows card details, and the decryption there: Web Crypto only (a browser, or any
 * runtime with `crypto.subtle`), with a private key that cannot be exported, so that no script can read it out.
 * No node-forge: a runtime without `crypto.subtle` cannot keep a key unreadable, so it gets an error instead.
 * @module
 */
import type { CardDetails } from '../../generated/types.gen';
import { asciiBytes, toBase64Url, utf8Decode } from '../card-details/bytes';
import { readCompactJwe, parseJson } from '../card-details/jwe';
import { checkDetails, decryptNative } from '../card-details/open';
import { RSA_OAEP_256, requireWebCrypto } from '../card-details/web-crypto';
import { CardDetailsDecryptionError, PrivateKeyInvalidError } from '../core/errors/classes';

/** A screen's key pair for card details: the public key as the API takes it, the private key kept where it was made. */
export interface RevealKey {
  /** Base64url (no padding) of the DER SubjectPublicKeyInfo: the `publicKey` of `getEncryptedDetails`. */
  readonly publicKey: string;
  /** RSA-OAEP-256, `decrypt` only, not extractable: usable here, never readable. */
  readonly privateKey: CryptoKey;
}

/**
 * Makes an RSA-OAEP-256 key pair (2048 bits) with Web Crypto whose private key is not extractable, and gives the
 * public key as base64url DER SPKI. Throws {@link PrivateKeyInvalidError} where there is no `crypto.subtle` (a page
 * that is not a secure context: serve it over https, or from localhost).
 */
export async function createRevealKey(): Promise<RevealKey> {
  const subtle = requireWebCrypto();
  const pair = await subtle.generateKey(
    { ...RSA_OAEP_256, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    false,
    ['encrypt', 'decrypt'],
  );
  const spki = new Uint8Array(await subtle.exportKey('spki', pair.publicKey));
  return { publicKey: toBase64Url(spki), privateKey: pair.privateKey };
}

/**
 * Decrypts a details JWE (RSA-OAEP-256 + A256GCM, compact) with the private key of a {@link RevealKey} and
 * returns the details validated with the spec's schema and the PAN's Luhn check. Throws
 * {@link CardDetailsDecryptionError} for a JWE of another form, for another key or tampered with,
 * `CardDetailsInvalidError` for a plaintext that is no card, {@link PrivateKeyInvalidError} for a key that is not
 * an RSA-OAEP-256 private key. No error holds any part of the plaintext.
 */
export async function revealCardDetails(jwe: string, key: RevealKey | CryptoKey): Promise<CardDetails> {
  const privateKey = 'privateKey' in key ? key.privateKey : key;
  const algorithm = privateKey.algorithm as Partial<RsaHashedKeyAlgorithm>;
  if (
    privateKey.type !== 'private' ||
    algorithm.name !== 'RSA-OAEP' ||
    algorithm.hash?.name !== 'SHA-256' ||
    !privateKey.usages.includes('decrypt')
  ) {
    throw new PrivateKeyInvalidError('The key must be the RSA-OAEP-256 private key of createRevealKey().');
  }
  const read = readCompactJwe(jwe);
  if ('invalid' in read) throw new CardDetailsDecryptionError(read.invalid);
  const plaintext = await decryptNative(privateKey, { ...read, aad: asciiBytes(read.protectedHeader) });
  if (!plaintext)
    throw new CardDetailsDecryptionError(
      'The card details could not be decrypted: encrypted to another key, or tampered with.',
    );
  return checkDetails(parseJson(utf8Decode(plaintext)));
}
