/**
 * Web Crypto as the card-details modules use it, apart from node-forge's loader (`./runtime`), so that code that
 * needs only Web Crypto (the reveal frame) bundles no path to forge.
 * @module
 * @internal
 */
import { PrivateKeyInvalidError } from '../core/errors/classes';

/** Web Crypto's RSA-OAEP with SHA-256: the key's algorithm (the hash belongs to the key), and the operation's. */
export const RSA_OAEP_256 = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;
export const RSA_OAEP = { name: 'RSA-OAEP' } as const;

/** Web Crypto, where the runtime has it; read at each call, so a test can take it away. */
export const webCrypto = (): SubtleCrypto | undefined => globalThis.crypto?.subtle;

export function requireWebCrypto(): SubtleCrypto {
  const subtle = webCrypto();
  if (!subtle)
    throw new PrivateKeyInvalidError('A CryptoKey needs Web Crypto (crypto.subtle), which this runtime does not have.');
  return subtle;
}
