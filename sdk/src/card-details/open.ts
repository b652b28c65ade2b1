/**
 * What decrypting card details needs besides a key reader: AES-GCM and RSA-OAEP with Web Crypto, and the checks
 * of the plaintext (the spec's `CardDetails` schema, the PAN's Luhn check). No node-forge here, so that the
 * reveal frame (`card-issuing-sdk/reveal`), which has Web Crypto by definition, carries none of it.
 * @module
 * @internal
 */
import type { CardDetails } from '../../generated/types.gen';
import { zCardDetails } from '../../generated/zod/zCardDetails.gen';
import { asBuffer } from './bytes';
import { CardDetailsInvalidError } from '../core/errors/classes';
import { formatPath, issuesOf } from '../core/zod-issues';
import { isLuhnValid } from '../luhn';
import { RSA_OAEP, requireWebCrypto } from './web-crypto';

/** A JWE's decoded parts, and its protected header's bytes as the AES-GCM additional data. */
export interface Sealed {
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  aad: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

export async function decryptNative(
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

/** The plaintext as validated card details, or a {@link CardDetailsInvalidError} naming paths (never values). */
export async function checkDetails(plaintext: unknown): Promise<CardDetails> {
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
