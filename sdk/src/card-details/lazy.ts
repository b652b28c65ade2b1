/**
 * The root entry's card-details functions: the key and decryption code (and zod, which checks decrypted details) is
 * loaded with import() on first use. Were the root to import `./keys` or `./decrypt` itself, a bundler that splits
 * code would load them with every page that imports the client, since the client loads them with import() too.
 * @module
 */
import { loadOnce } from '../load-once';
import type * as Decrypt from './decrypt';
import type * as Keys from './keys';

/** The decryption chunk, loaded once (a failed load is tried again by the next call). */
export const loadDecrypt: () => Promise<typeof Decrypt> = loadOnce(() => import('./decrypt'));
/** The key chunk, loaded once (a failed load is tried again by the next call). */
export const loadKeys: () => Promise<typeof Keys> = loadOnce(() => import('./keys'));

export { cardKeyBits } from './guards';

/**
 * Decrypts the card details of a `getCardDetails` response (a compact JWE, RSA-OAEP-256 + A256GCM) with the private
 * key of the pair whose public key was sent, and returns them validated (schema and the PAN's Luhn check).
 */
export async function decryptCardDetails(
  ...args: Parameters<typeof Decrypt.decryptCardDetails>
): ReturnType<typeof Decrypt.decryptCardDetails> {
  return (await loadDecrypt()).decryptCardDetails(...args);
}

/**
 * Makes an RSA key pair for card details: 2048 bits by default, 4096 allowed; `CryptoKey`s with Web Crypto (the
 * private key not extractable unless `extractable: true`), node-forge keys without it. Make one per session.
 */
export async function generateCardKeyPair(
  ...args: Parameters<typeof Keys.generateCardKeyPair>
): ReturnType<typeof Keys.generateCardKeyPair> {
  return (await loadKeys()).generateCardKeyPair(...args);
}

/** The public key as the `publicKey` query parameter carries it: base64url without padding of the DER SPKI. */
export async function exportPublicKey(
  ...args: Parameters<typeof Keys.exportPublicKey>
): ReturnType<typeof Keys.exportPublicKey> {
  return (await loadKeys()).exportPublicKey(...args);
}

/** Reads a private key from the forms it comes in (PKCS#8 or PKCS#1 PEM, JWK, a CryptoKey, a node-forge key). */
export async function importPrivateKey(
  ...args: Parameters<typeof Keys.importPrivateKey>
): ReturnType<typeof Keys.importPrivateKey> {
  return (await loadKeys()).importPrivateKey(...args);
}
