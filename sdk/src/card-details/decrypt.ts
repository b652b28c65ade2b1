/**
 * Decryption of a details response's JWE with the private key of the pair whose public key was sent, and the
 * checks of what comes out (the spec's `CardDetails` schema and the PAN's Luhn check).
 * @module
 */
import type { CardDetails } from '../../generated/types.gen';
import { asciiBytes, utf8Decode } from './bytes';
import { CardDetailsDecryptionError } from '../core/errors/classes';
import type { ForgePrivateKey } from './forge';
import { parseJson, readCompactJwe } from './jwe';
import { importPrivateKey } from './keys';
import { checkDetails, decryptNative, type Sealed } from './open';
import { isCryptoKey, loadForge } from './runtime';
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
  const jwe = readCompactJwe(encryptedDetails);
  if ('invalid' in jwe) throw new CardDetailsDecryptionError(jwe.invalid);
  const { protectedHeader, encryptedKey, iv, ciphertext, tag } = jwe;
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

async function decryptForge(
  key: ForgePrivateKey,
  { encryptedKey, iv, aad, ciphertext, tag }: Sealed,
): Promise<Uint8Array | undefined> {
  const forge = await loadForge();
  const contentKey = forge.rsaOaepDecrypt(key, encryptedKey);
  if (contentKey?.length !== 32) return undefined;
  return forge.aesGcmDecrypt(contentKey, iv, aad, ciphertext, tag);
}
