/**
 * Card key pairs: make one ({@link generateCardKeyPair}), send its public key ({@link exportPublicKey}), read keys
 * from the forms they come in ({@link importPublicKey}, {@link importPrivateKey}).
 *
 * Web Crypto does the work wherever `crypto.subtle` exists (Node, browsers, Deno, Bun, workers): native key
 * generation and keys that are `CryptoKey`s (a generated private key is not extractable unless asked for).
 * node-forge (`./forge`, loaded with `import()` only when needed) does it where `crypto.subtle` is absent (jsdom,
 * React Native, older embedded engines), and converts what Web Crypto has no format for: PKCS#1 PEM and node-forge
 * key objects. Every function is async for that reason.
 * @module
 */
import { fromBase64 } from '../bytes';
import { asBuffer, fromBase64Url, toBase64Url } from './bytes';
import { loadOnce } from '../load-once';
import { PrivateKeyInvalidError, PublicKeyInvalidError } from '../core/errors/classes';
import type { ForgePrivateKey, ForgePublicKey } from './forge';
import {
  RSA_OAEP_256,
  checkBits,
  checkRsaCryptoKey,
  isCryptoKey,
  isForgeKey,
  isKeyPair,
  isWholeDerSequence,
  loadForge,
  requireWebCrypto,
  webCrypto,
} from './runtime';
import {
  CARD_KEY_BITS,
  type CardKeyPair,
  type CardPrivateKey,
  type CardPrivateKeyInput,
  type CardPublicKey,
  type GenerateCardKeyPairOptions,
  type RsaPrivateKey,
  type RsaPublicKey,
} from './types';

/**
 * Makes an RSA key pair for card details: 2048 bits by default, 4096 allowed. With Web Crypto (natively, in
 * milliseconds) the keys are `CryptoKey`s and the private key is not extractable unless `extractable: true`;
 * without `crypto.subtle` they are node-forge keys made in pure JavaScript (about a second for 2048 bits, in steps
 * that keep the event loop free). Make one per session, not per request.
 */
export async function generateCardKeyPair(options: GenerateCardKeyPairOptions = {}): Promise<CardKeyPair> {
  const bits = options.bits ?? 2048;
  if (!(CARD_KEY_BITS as readonly number[]).includes(bits)) {
    throw new PublicKeyInvalidError(`A card key pair has 2048 or 4096 bits, not ${String(bits)}.`);
  }
  const subtle = webCrypto();
  if (!subtle) {
    const { publicKey, privateKey } = await (await loadForge()).generateKeyPair(bits);
    return { publicKey, privateKey };
  }
  const algorithm: RsaHashedKeyGenParams = {
    ...RSA_OAEP_256,
    modulusLength: bits,
    publicExponent: new Uint8Array([1, 0, 1]),
  };
  return subtle.generateKey(algorithm, options.extractable ?? false, ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']);
}

export { cardKeyBits } from './guards';

/**
 * The public key as the `publicKey` query parameter carries it: base64url without padding of the DER
 * SubjectPublicKeyInfo. A key that is not RSA or shorter than 2048 bits is refused ({@link PublicKeyInvalidError},
 * `PUBLIC_KEY_INVALID`).
 */
export async function exportPublicKey(keyPairOrPublicKey: CardKeyPair | CardPublicKey): Promise<string> {
  const key = isKeyPair(keyPairOrPublicKey) ? keyPairOrPublicKey.publicKey : keyPairOrPublicKey;
  if (isCryptoKey(key)) {
    checkRsaCryptoKey(key, 'public', PublicKeyInvalidError);
    return toBase64Url(new Uint8Array(await requireWebCrypto().exportKey('spki', key)));
  }
  if (isForgeKey(key) && typeof (key as Partial<RsaPublicKey>).encrypt === 'function') {
    checkBits(key.n.bitLength(), PublicKeyInvalidError, 'public');
    return toBase64Url((await loadForge()).spkiOf(key as ForgePublicKey));
  }
  throw new PublicKeyInvalidError('The public key must be an RSA public key.');
}

/**
 * Reads a `publicKey` query parameter (base64url DER SubjectPublicKeyInfo) into an RSA public key (a `CryptoKey`
 * for RSA-OAEP-256 with Web Crypto, a forge key without). Throws {@link PublicKeyInvalidError}
 * (`code: 'PUBLIC_KEY_INVALID'`) when it is malformed, not RSA, or too short.
 */
export async function importPublicKey(publicKey: string): Promise<CardPublicKey> {
  const der =
    typeof publicKey === 'string' && /^[A-Za-z0-9_-]+$/.test(publicKey) ? fromBase64Url(publicKey) : undefined;
  if (!der)
    throw new PublicKeyInvalidError(
      'The public key must be base64url (without padding) of a DER SubjectPublicKeyInfo.',
    );
  const subtle = webCrypto();
  // The runtime's messages ("OID is not RSA", OpenSSL's decoder errors) are not ours to pass on.
  const notRsa = () => new PublicKeyInvalidError('The public key is not a DER SubjectPublicKeyInfo of an RSA key.');
  if (!subtle) {
    const forge = await loadForge();
    let key: ForgePublicKey;
    try {
      key = forge.publicKeyFromSpki(der);
    } catch {
      throw notRsa();
    }
    checkBits(key.n.bitLength(), PublicKeyInvalidError, 'public');
    return key;
  }
  let key: CryptoKey;
  try {
    // Web Crypto ignores bytes after the key; the service refuses them, and so do we (forge parses strictly).
    if (!isWholeDerSequence(der)) throw notRsa();
    key = await subtle.importKey('spki', der, RSA_OAEP_256, true, ['encrypt', 'wrapKey']);
  } catch {
    throw notRsa();
  }
  checkRsaCryptoKey(key, 'public', PublicKeyInvalidError);
  return key;
}

/**
 * Reads a private key given as a key pair, a key, or PEM (PKCS#8 `PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`), and
 * checks that it is RSA and 2048 bits or more ({@link PrivateKeyInvalidError}, `PRIVATE_KEY_INVALID`). With Web
 * Crypto the result is a `CryptoKey` for RSA-OAEP-256 decryption (PKCS#1 and forge keys are converted by forge).
 */
export async function importPrivateKey(privateKey: CardPrivateKeyInput): Promise<CardPrivateKey> {
  const key: unknown = isKeyPair(privateKey) ? privateKey.privateKey : privateKey;
  const subtle = webCrypto();
  if (isCryptoKey(key)) {
    checkRsaCryptoKey(key, 'private', PrivateKeyInvalidError);
    const hash = (key.algorithm as Partial<RsaHashedKeyAlgorithm>).hash?.name;
    if (key.algorithm.name !== 'RSA-OAEP' || hash !== 'SHA-256' || !key.usages.includes('decrypt')) {
      throw new PrivateKeyInvalidError(
        'The private key must be a CryptoKey for RSA-OAEP with SHA-256 that allows "decrypt".',
      );
    }
    return key;
  }
  if (typeof key === 'string') return importPrivatePem(key, subtle);
  if (isForgeKey(key) && typeof (key as Partial<RsaPrivateKey>).decrypt === 'function') {
    checkBits(key.n.bitLength(), PrivateKeyInvalidError, 'private');
    if (!subtle) return key as RsaPrivateKey;
    return nativeFromForge(key as ForgePrivateKey, subtle);
  }
  throw new PrivateKeyInvalidError('The private key must be an RSA private key.');
}

async function importPrivatePem(pem: string, subtle: SubtleCrypto | undefined): Promise<CardPrivateKey> {
  const invalid = () => new PrivateKeyInvalidError('The private key is not a PEM RSA private key (PKCS#1 or PKCS#8).');
  const pkcs8 = /^\s*-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----\s*$/.exec(pem);
  if (subtle && pkcs8) {
    const der = fromBase64(pkcs8[1]!.replace(/\s+/g, ''));
    let key: CryptoKey;
    try {
      if (!der) throw invalid();
      key = await subtle.importKey('pkcs8', der, RSA_OAEP_256, false, ['decrypt']);
    } catch {
      throw invalid();
    }
    checkRsaCryptoKey(key, 'private', PrivateKeyInvalidError);
    return key;
  }
  // PKCS#1 (which Web Crypto cannot import), or no Web Crypto at all: forge reads the PEM.
  const forge = await loadForge();
  let key: ForgePrivateKey;
  try {
    key = forge.privateKeyFromPem(pem);
  } catch {
    throw invalid();
  }
  if (!isForgeKey(key)) throw invalid();
  checkBits(key.n.bitLength(), PrivateKeyInvalidError, 'private');
  return subtle ? nativeFromForge(key, subtle) : key;
}

// A forge key converted once, then reused (the conversion is an RSA key import; a failed one is tried again).
const converted = new WeakMap<object, () => Promise<CryptoKey>>();

function nativeFromForge(key: ForgePrivateKey, subtle: SubtleCrypto): Promise<CryptoKey> {
  let native = converted.get(key);
  if (!native) {
    native = loadOnce(async () =>
      subtle.importKey('pkcs8', asBuffer((await loadForge()).pkcs8Of(key)), RSA_OAEP_256, false, ['decrypt']),
    );
    converted.set(key, native);
  }
  return native();
}
