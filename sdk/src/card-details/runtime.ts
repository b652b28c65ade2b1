/**
 * What the card-details modules share: Web Crypto where the runtime has it, node-forge (loaded on first need)
 * where not, and the checks every key goes through (RSA, 2048 bits or more, the right usage).
 * @module
 * @internal
 */
import type { PrivateKeyInvalidError, PublicKeyInvalidError } from '../core/errors/classes';
import { loadOnce } from '../load-once';
import { MIN_RSA_BITS } from './types';
export { isCryptoKey, isForgeKey, isKeyPair } from './guards';
export { RSA_OAEP, RSA_OAEP_256, requireWebCrypto, webCrypto } from './web-crypto';

/** node-forge, loaded on first need (a separate chunk in a bundle); a failed load is tried again. */
export const loadForge: () => Promise<typeof import('./forge')> = loadOnce(() => import('./forge'));

type KeyError = typeof PublicKeyInvalidError | typeof PrivateKeyInvalidError;

export function checkRsaCryptoKey(key: CryptoKey, type: 'public' | 'private', Failure: KeyError): void {
  if (key.type !== type || !/^RSA/.test(key.algorithm.name))
    throw new Failure(`The ${type} key must be an RSA ${type} key.`);
  checkBits((key.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength ?? 0, Failure, type);
}

export function checkBits(bits: number, Failure: KeyError, type: 'public' | 'private'): void {
  if (bits < MIN_RSA_BITS)
    throw new Failure(`The ${type} key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`);
}

/** True when the bytes are one DER SEQUENCE and nothing after it (tag, definite length, content, end). */
export function isWholeDerSequence(der: Uint8Array): boolean {
  if (der.length < 2 || der[0] !== 0x30) return false;
  let length = der[1]!;
  let offset = 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets < 1 || octets > 4 || der.length < 2 + octets) return false;
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[offset++]!;
  }
  return offset + length === der.length;
}
