/**
 * Server-side encryption of card details to the caller's public key, as the service (and the mock) does:
 * `card-issuing-sdk/server`. Web Crypto where there is `crypto.subtle`, node-forge where not.
 * @module
 */
import type { CardDetails } from '../../generated/types.gen';
import { utf8Encode } from '../bytes';
import { asBuffer, asciiBytes, toBase64Url } from './bytes';
import { PublicKeyInvalidError } from '../core/errors/classes';
import type { ForgePublicKey } from './forge';
import { CARD_DETAILS_JWE_HEADER } from './jwe';
import { importPublicKey } from './keys';
import {
  RSA_OAEP,
  RSA_OAEP_256,
  checkBits,
  checkRsaCryptoKey,
  isCryptoKey,
  isForgeKey,
  isKeyPair,
  loadForge,
  requireWebCrypto,
  webCrypto,
} from './runtime';
import type { CardPublicKeyInput, RsaPublicKey } from './types';

/**
 * Encrypts card details to a public key, as the service (and the mock) does: returns the JWE compact
 * serialization. `publicKey` is a key pair, a key, or the base64url DER SPKI of the `publicKey` query parameter.
 * A key that is malformed, not RSA, or shorter than 2048 bits throws {@link PublicKeyInvalidError}
 * (`code === 'PUBLIC_KEY_INVALID'`), which a server answers with 400.
 */
export async function encryptCardDetails(details: CardDetails, publicKey: CardPublicKeyInput): Promise<string> {
  const key = await encryptionKey(publicKey);
  const protectedHeader = toBase64Url(utf8Encode(JSON.stringify(CARD_DETAILS_JWE_HEADER)));
  const aad = asciiBytes(protectedHeader);
  const plaintext = utf8Encode(JSON.stringify(details));
  const subtle = webCrypto();
  let encryptedKey: Uint8Array;
  let iv: Uint8Array;
  let sealed: { ciphertext: Uint8Array; tag: Uint8Array };
  if (isCryptoKey(key) && subtle) {
    const contentKey = globalThis.crypto.getRandomValues(new Uint8Array(32));
    iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const aesKey = await subtle.importKey('raw', contentKey, 'AES-GCM', false, ['encrypt']);
    const [wrapped, output] = await Promise.all([
      subtle.encrypt(RSA_OAEP, key, contentKey),
      subtle.encrypt({ name: 'AES-GCM', iv: asBuffer(iv), additionalData: aad, tagLength: 128 }, aesKey, plaintext),
    ]);
    encryptedKey = new Uint8Array(wrapped);
    const bytes = new Uint8Array(output);
    sealed = { ciphertext: bytes.subarray(0, bytes.length - 16), tag: bytes.subarray(bytes.length - 16) };
  } else {
    const forge = await loadForge();
    const contentKey = forge.randomBytes(32);
    iv = forge.randomBytes(12);
    encryptedKey = forge.rsaOaepEncrypt(key as ForgePublicKey, contentKey);
    sealed = forge.aesGcmEncrypt(contentKey, iv, aad, plaintext);
  }
  return [
    protectedHeader,
    toBase64Url(encryptedKey),
    toBase64Url(iv),
    toBase64Url(sealed.ciphertext),
    toBase64Url(sealed.tag),
  ].join('.');
}

/** The key to encrypt to: a CryptoKey for RSA-OAEP-256 encryption with Web Crypto, a forge key without. */
async function encryptionKey(publicKey: CardPublicKeyInput): Promise<CryptoKey | ForgePublicKey> {
  if (typeof publicKey === 'string') return (await importPublicKey(publicKey)) as CryptoKey | ForgePublicKey;
  const key = isKeyPair(publicKey) ? publicKey.publicKey : publicKey;
  const subtle = webCrypto();
  if (isCryptoKey(key)) {
    checkRsaCryptoKey(key, 'public', PublicKeyInvalidError);
    const hash = (key.algorithm as Partial<RsaHashedKeyAlgorithm>).hash?.name;
    if (key.algorithm.name === 'RSA-OAEP' && hash === 'SHA-256' && key.usages.includes('encrypt')) return key;
    // Another RSA algorithm or usage (a public key can always be exported): the same key, for RSA-OAEP-256.
    return requireWebCrypto().importKey('spki', await requireWebCrypto().exportKey('spki', key), RSA_OAEP_256, true, [
      'encrypt',
    ]);
  }
  if (isForgeKey(key) && typeof (key as Partial<RsaPublicKey>).encrypt === 'function') {
    checkBits(key.n.bitLength(), PublicKeyInvalidError, 'public');
    if (!subtle) return key as ForgePublicKey;
    return subtle.importKey('spki', asBuffer((await loadForge()).spkiOf(key as ForgePublicKey)), RSA_OAEP_256, true, [
      'encrypt',
    ]);
  }
  throw new PublicKeyInvalidError('The public key must be an RSA public key.');
}
