/**
 * What kind of key a value is, by its shape: light enough for the root entry, which must not load the key code.
 * @module
 * @internal
 */
import type { CardKeyPair, CardPrivateKey, CardPublicKey } from './types';

export function isCryptoKey(value: unknown): value is CryptoKey {
  const k = value as Partial<CryptoKey> | null;
  return (
    typeof k === 'object' &&
    k !== null &&
    typeof k.type === 'string' &&
    typeof k.algorithm === 'object' &&
    Array.isArray(k.usages)
  );
}

export function isForgeKey(value: unknown): value is { n: { bitLength(): number }; e: object } {
  const k = value as { n?: { bitLength?: unknown }; e?: unknown } | null;
  return typeof k === 'object' && k !== null && typeof k.n?.bitLength === 'function' && typeof k.e === 'object';
}

export function isKeyPair(value: unknown): value is CardKeyPair {
  return typeof value === 'object' && value !== null && 'publicKey' in value && 'privateKey' in value;
}

/** The modulus size of a card key (or of a key pair's public key), in bits. */
export function cardKeyBits(key: CardKeyPair | CardPublicKey | CardPrivateKey): number {
  const k = isKeyPair(key) ? key.publicKey : key;
  if (isCryptoKey(k)) return (k.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength ?? 0;
  return isForgeKey(k) ? k.n.bitLength() : 0;
}
