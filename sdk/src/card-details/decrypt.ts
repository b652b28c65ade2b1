/**
 * Decryption of a details response's JWE with the private key of the pair whose public key was sent, and the
 * checks of what comes out (the spec's `CardDetails` schema and the PAN's Luhn check).
 * @module
 */
import type { CardDetails } from '../../generated/types.gen';
import { zCardDetails } from '../../generated/zod/zCardDetails.gen';
import { asBuffer, asciiBytes, fromBase64Url, utf8Decode } from '../bytes';
import { CardDetailsDecryptionError, CardDetailsInvalidError } from '../core/errors/classes';
import { formatPath, issuesOf } from '../core/zod-issues';
import type { ForgePrivateKey } from './forge';
import { isAgreedHeader, parseJson } from './jwe';
import { importPrivateKey } from './keys';
import { isLuhnValid } from '../luhn';
import { RSA_OAEP, isCryptoKey, loadForge, requireWebCrypto } from './runtime';
import type { CardPrivateKeyInput } from './types';

/**
 * Decrypts the `encryptedDetails` of a details response with the private key of the pair whose public key was
 * sent, and returns the card details validated with the generated `zCardDetails` and the PAN's Luhn check.
 *
 * Throws {@link CardDetailsDecryptionError} (`CARD_DETAILS_DECRYPTION_FAILED`) for anything that is not a JWE of
 * the agreed form, was encrypted to another key, or was tampered with; {@link CardDetailsInvalidError}
 * (`CARD_DETAILS_INVALID`) when the plaintext is not valid card details; {@link PrivateKeyInvalidError} for an
 * unusable key. No error holds key material or any part of the plaintext.
 */
export async function decryptCardDetails(
  encryptedDetails: string,
  privateKey: CardPrivateKeyInput,
): Promise<CardDetails> {
  const key = await importPrivateKey(privateKey);
  const parts = typeof encryptedDetails === 'string' ? encryptedDetails.split('.') : [];
  if (parts.length !== 5 || parts.some((part, i) => !/^[A-Za-z0-9_-]*$/.test(part) || (part === '' && i !== 1))) {
    throw new CardDetailsDecryptionError(
      'The encrypted card details are not a JWE compact serialization (five base64url parts).',
    );
  }
  const [protectedHeader, encryptedKeyPart, ivPart, ciphertextPart, tagPart] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  const header = parseJson(utf8Decode(fromBase64Url(protectedHeader)));
  if (!isAgreedHeader(header)) {
    throw new CardDetailsDecryptionError(
      'The JWE header is not {"alg":"RSA-OAEP-256","enc":"A256GCM"}; refusing to decrypt it.',
    );
  }
  const [encryptedKey, iv, ciphertext, tag] = [encryptedKeyPart, ivPart, ciphertextPart, tagPart].map(fromBase64Url);
  if (!encryptedKey || !ciphertext || iv?.length !== 12 || tag?.length !== 16) {
    throw new CardDetailsDecryptionError('The JWE must have a 96-bit IV and a 128-bit authentication tag.');
  }
  const sealed: Sealed = { encryptedKey, iv, aad: asciiBytes(protectedHeader), ciphertext, tag };
  const plaintext = isCryptoKey(key)
    ? await decryptNative(key, sealed)
    : await decryptForge(key as ForgePrivateKey, sealed);
  // One message for a wrong key and a bad tag, so that the error tells nothing about which check failed.
  if (!plaintext)
    throw new CardDetailsDecryptionError(
      'The card details could not be decrypted: encrypted to another key, or tampered with.',
    );
  return await checkDetails(parseJson(utf8Decode(plaintext)));
}

/** A JWE's decoded parts, and its protected header's bytes as the AES-GCM additional data. */
interface Sealed {
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  aad: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

async function decryptNative(
  key: CryptoKey,
  { encryptedKey, iv, aad, ciphertext, tag }: Sealed,
): Promise<Uint8Array | undefined> {
  const subtle = requireWebCrypto();
  try {
    const contentKey = await subtle.decrypt(RSA_OAEP, key, asBuffer(encryptedKey));
    if (contentKey.byteLength !== 32) return undefined;
    const aesKey = await subtle.importKey('raw', contentKey, 'AES-GCM', false, ['decrypt']);
    const sealed = new Uint8Array(ciphertext.length + tag.length);
    sealed.set(ciphertext);
    sealed.set(tag, ciphertext.length);
    return new Uint8Array(
      await subtle.decrypt(
        { name: 'AES-GCM', iv: asBuffer(iv), additionalData: asBuffer(aad), tagLength: 128 },
        aesKey,
        sealed,
      ),
    );
  } catch {
    return undefined;
  }
}

async function decryptForge(
  key: ForgePrivateKey,
  { encryptedKey, iv, aad, ciphertext, tag }: Sealed,
): Promise<Uint8Array | undefined> {
  const forge = await loadForge();
  const contentKey = forge.rsaOaepDecrypt(key, encryptedKey);
  if (contentKey?.length !== 32) return undefined;
  return forge.aesGcmDecrypt(contentKey, iv, aad, ciphertext, tag);
}

/** The plaintext as validated card details, or a {@link CardDetailsInvalidError} naming paths (never values). */
async function checkDetails(plaintext: unknown): Promise<CardDetails> {
  const issues = await issuesOf(zCardDetails, plaintext);
  if (issues) {
    // Paths and zod's messages only: zod 4 does not put the input into its messages.
    const errors = issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
    throw new CardDetailsInvalidError(
      `The decrypted card details do not match the CardDetails schema (${errors.map((e) => e.path || '(body)').join(', ')}).`,
      errors,
    );
  }
  const details = plaintext as CardDetails;
  if (!isLuhnValid(details.pan)) {
    throw new CardDetailsInvalidError('The decrypted PAN fails the Luhn check.', [
      { path: 'pan', message: 'Fails the Luhn check' },
    ]);
  }
  return details;
}
