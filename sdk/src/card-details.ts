/**
 * Card details: RSA key pairs and the JWE that carries a card's PAN, expiry, CVV and cardholder name
 * (contract section 3). The mock uses {@link encryptCardDetails}, integrators {@link generateCardKeyPair},
 * {@link exportPublicKey} and {@link decryptCardDetails} (or the client's `getDetails` methods, which do all three).
 *
 * The JWE is the compact serialization of RFC 7516 with the protected header
 * `{"alg":"RSA-OAEP-256","enc":"A256GCM","cty":"application/json"}`: a fresh 256-bit content key wrapped with
 * RSA-OAEP (SHA-256, MGF1 with SHA-256), AES-256-GCM with a 96-bit IV and a 128-bit tag, and as additional
 * authenticated data the ASCII of the base64url protected header. Any JOSE library reads it.
 *
 * Web Crypto does the work wherever `crypto.subtle` exists (Node, browsers, Deno, Bun, workers): native key
 * generation, RSA-OAEP and AES-GCM, and keys that are `CryptoKey`s (a generated private key is not extractable
 * unless asked for). node-forge (`./forge`, loaded with `import()` only when needed) does it where `crypto.subtle`
 * is absent (jsdom, React Native, older embedded engines), and converts what Web Crypto has no format for: PKCS#1
 * PEM and node-forge key objects. Every function is async for that reason.
 * @module
 */
import type { CardDetails } from '../generated/types.gen';
import { zCardDetails } from '../generated/zod.gen';
import { CardDetailsDecryptionError, CardDetailsInvalidError, PrivateKeyInvalidError, PublicKeyInvalidError } from './errors';
import type { ForgePrivateKey, ForgePublicKey } from './forge';
import { formatPath, issuesOf } from './zod-issues';

/**
 * An RSA public key as node-forge makes it (`forge.pki.rsa.PublicKey`), what {@link generateCardKeyPair} returns
 * where there is no `crypto.subtle`. Described by the members the SDK uses, so that the package's types do not
 * need `@types/node-forge`; any forge RSA public key fits.
 */
export interface RsaPublicKey {
  readonly n: { bitLength(): number };
  readonly e: unknown;
  encrypt(...args: never[]): string;
}

/** An RSA private key as node-forge makes it (`forge.pki.rsa.PrivateKey`); any forge RSA private key fits. */
export interface RsaPrivateKey {
  readonly n: { bitLength(): number };
  readonly e: unknown;
  decrypt(...args: never[]): string;
}

/** A public key of a card key pair: a Web Crypto `CryptoKey`, or a node-forge key where there is no `crypto.subtle`. */
export type CardPublicKey = CryptoKey | RsaPublicKey;

/** A private key of a card key pair: a Web Crypto `CryptoKey`, or a node-forge key where there is no `crypto.subtle`. */
export type CardPrivateKey = CryptoKey | RsaPrivateKey;

/**
 * An RSA key pair for card details: keep `privateKey` where it was made; send only the public key. A Web Crypto
 * `CryptoKeyPair` is one (so is a pair that jose or `crypto.subtle.generateKey` made for RSA-OAEP-256).
 */
export interface CardKeyPair {
  publicKey: CardPublicKey;
  privateKey: CardPrivateKey;
}

/** A public key as {@link encryptCardDetails} takes it: a key pair, a key, or the base64url DER SPKI of the query. */
export type CardPublicKeyInput = CardKeyPair | CardPublicKey | string;

/** A private key as {@link decryptCardDetails} takes it: a key pair, a key, or PEM (PKCS#8 or PKCS#1). */
export type CardPrivateKeyInput = CardKeyPair | CardPrivateKey | string;

/** Options of {@link generateCardKeyPair}. */
export interface GenerateCardKeyPairOptions {
  /** The modulus size: 2048 (default) or 4096 bits. */
  bits?: 2048 | 4096;
  /**
   * Whether the private key can be exported (Web Crypto keys only; default false, so that no script on the page
   * can read it out, only use it). Forge keys are plain objects and always readable.
   */
  extractable?: boolean;
}

/** The only key sizes the service accepts. */
export const CARD_KEY_BITS = [2048, 4096] as const;

/** The smallest RSA modulus accepted, in bits. */
export const MIN_RSA_BITS = 2048;

/** The JWE protected header of encrypted card details. */
export const CARD_DETAILS_JWE_HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'application/json' } as const;

/** Web Crypto's RSA-OAEP with SHA-256: the key's algorithm (the hash belongs to the key), and the operation's. */
const RSA_OAEP_256 = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;
const RSA_OAEP = { name: 'RSA-OAEP' } as const;

type ForgeModule = typeof import('./forge');
let forgeModule: Promise<ForgeModule> | undefined;
/** node-forge, loaded on first need (a separate chunk in a bundle). */
const loadForge = (): Promise<ForgeModule> => (forgeModule ??= import('./forge'));

/** Web Crypto, where the runtime has it; read at each call, so a test can take it away. */
const webCrypto = (): SubtleCrypto | undefined => globalThis.crypto?.subtle;

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
  const algorithm: RsaHashedKeyGenParams = { ...RSA_OAEP_256, modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]) };
  return subtle.generateKey(algorithm, options.extractable ?? false, ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']);
}

/** The modulus size of a card key (or of a key pair's public key), in bits. */
export function cardKeyBits(key: CardKeyPair | CardPublicKey | CardPrivateKey): number {
  const k = isKeyPair(key) ? key.publicKey : key;
  if (isCryptoKey(k)) return (k.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength ?? 0;
  return isForgeKey(k) ? k.n.bitLength() : 0;
}

/**
 * The public key as the `publicKey` query parameter carries it: base64url without padding of the DER
 * SubjectPublicKeyInfo. A key that is not RSA or shorter than 2048 bits is refused ({@link PublicKeyInvalidError},
 * `PUBLIC_KEY_INVALID`).
 */
export async function exportPublicKey(keyPairOrPublicKey: CardKeyPair | CardPublicKey): Promise<string> {
  const key = isKeyPair(keyPairOrPublicKey) ? keyPairOrPublicKey.publicKey : keyPairOrPublicKey;
  if (isCryptoKey(key)) {
    checkRsaCryptoKey(key, 'public', PublicKeyInvalidError);
    return base64UrlEncode(new Uint8Array(await requireWebCrypto().exportKey('spki', key)));
  }
  if (isForgeKey(key) && typeof (key as Partial<RsaPublicKey>).encrypt === 'function') {
    checkBits(key.n.bitLength(), PublicKeyInvalidError, 'public');
    return base64UrlEncode((await loadForge()).spkiOf(key as ForgePublicKey));
  }
  throw new PublicKeyInvalidError('The public key must be an RSA public key.');
}

/**
 * Reads a `publicKey` query parameter (base64url DER SubjectPublicKeyInfo) into an RSA public key (a `CryptoKey`
 * for RSA-OAEP-256 with Web Crypto, a forge key without). Throws {@link PublicKeyInvalidError}
 * (`code: 'PUBLIC_KEY_INVALID'`) when it is malformed, not RSA, or too short.
 */
export async function importPublicKey(publicKey: string): Promise<CardPublicKey> {
  const der = typeof publicKey === 'string' && /^[A-Za-z0-9_-]+$/.test(publicKey) ? base64UrlDecode(publicKey) : undefined;
  if (!der) throw new PublicKeyInvalidError('The public key must be base64url (without padding) of a DER SubjectPublicKeyInfo.');
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
      throw new PrivateKeyInvalidError('The private key must be a CryptoKey for RSA-OAEP with SHA-256 that allows "decrypt".');
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

/**
 * Encrypts card details to a public key, as the service (and the mock) does: returns the JWE compact
 * serialization. `publicKey` is a key pair, a key, or the base64url DER SPKI of the `publicKey` query parameter.
 * A key that is malformed, not RSA, or shorter than 2048 bits throws {@link PublicKeyInvalidError}
 * (`code === 'PUBLIC_KEY_INVALID'`), which a server answers with 400.
 */
export async function encryptCardDetails(details: CardDetails, publicKey: CardPublicKeyInput): Promise<string> {
  const key = await encryptionKey(publicKey);
  const protectedHeader = base64UrlEncode(utf8Encode(JSON.stringify(CARD_DETAILS_JWE_HEADER)));
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
  return [protectedHeader, base64UrlEncode(encryptedKey), base64UrlEncode(iv), base64UrlEncode(sealed.ciphertext), base64UrlEncode(sealed.tag)].join('.');
}

/**
 * Decrypts the `encryptedDetails` of a details response with the private key of the pair whose public key was
 * sent, and returns the card details validated with the generated `zCardDetails` and the PAN's Luhn check.
 *
 * Throws {@link CardDetailsDecryptionError} (`CARD_DETAILS_DECRYPTION_FAILED`) for anything that is not a JWE of
 * the agreed form, was encrypted to another key, or was tampered with; {@link CardDetailsInvalidError}
 * (`CARD_DETAILS_INVALID`) when the plaintext is not valid card details; {@link PrivateKeyInvalidError} for an
 * unusable key. No error holds key material or any part of the plaintext.
 */
export async function decryptCardDetails(encryptedDetails: string, privateKey: CardPrivateKeyInput): Promise<CardDetails> {
  const key = await importPrivateKey(privateKey);
  const parts = typeof encryptedDetails === 'string' ? encryptedDetails.split('.') : [];
  if (parts.length !== 5 || parts.some((part, i) => !/^[A-Za-z0-9_-]*$/.test(part) || (part === '' && i !== 1))) {
    throw new CardDetailsDecryptionError('The encrypted card details are not a JWE compact serialization (five base64url parts).');
  }
  const [protectedHeader, encryptedKeyPart, ivPart, ciphertextPart, tagPart] = parts as [string, string, string, string, string];
  const header = parseJson(utf8Decode(base64UrlDecode(protectedHeader)));
  if (!isAgreedHeader(header)) {
    throw new CardDetailsDecryptionError('The JWE header is not {"alg":"RSA-OAEP-256","enc":"A256GCM"}; refusing to decrypt it.');
  }
  const [encryptedKey, iv, ciphertext, tag] = [encryptedKeyPart, ivPart, ciphertextPart, tagPart].map(base64UrlDecode);
  if (!encryptedKey || !ciphertext || iv?.length !== 12 || tag?.length !== 16) {
    throw new CardDetailsDecryptionError('The JWE must have a 96-bit IV and a 128-bit authentication tag.');
  }
  const aad = asciiBytes(protectedHeader);
  const plaintext = isCryptoKey(key)
    ? await decryptNative(key, encryptedKey, iv, aad, ciphertext, tag)
    : await decryptForge(key as ForgePrivateKey, encryptedKey, iv, aad, ciphertext, tag);
  // One message for a wrong key and a bad tag, so that the error tells nothing about which check failed.
  if (!plaintext) throw new CardDetailsDecryptionError('The card details could not be decrypted: encrypted to another key, or tampered with.');
  return checkDetails(parseJson(utf8Decode(plaintext)));
}

async function decryptNative(key: CryptoKey, encryptedKey: Uint8Array, iv: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Promise<Uint8Array | undefined> {
  const subtle = requireWebCrypto();
  try {
    const contentKey = await subtle.decrypt(RSA_OAEP, key, asBuffer(encryptedKey));
    if (contentKey.byteLength !== 32) return undefined;
    const aesKey = await subtle.importKey('raw', contentKey, 'AES-GCM', false, ['decrypt']);
    const sealed = new Uint8Array(ciphertext.length + tag.length);
    sealed.set(ciphertext);
    sealed.set(tag, ciphertext.length);
    return new Uint8Array(await subtle.decrypt({ name: 'AES-GCM', iv: asBuffer(iv), additionalData: asBuffer(aad), tagLength: 128 }, aesKey, sealed));
  } catch {
    return undefined;
  }
}

async function decryptForge(key: ForgePrivateKey, encryptedKey: Uint8Array, iv: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array): Promise<Uint8Array | undefined> {
  const forge = await loadForge();
  const contentKey = forge.rsaOaepDecrypt(key, encryptedKey);
  if (contentKey?.length !== 32) return undefined;
  return forge.aesGcmDecrypt(contentKey, iv, aad, ciphertext, tag);
}

/** The plaintext as validated card details, or a {@link CardDetailsInvalidError} naming paths (never values). */
function checkDetails(plaintext: unknown): CardDetails {
  const issues = issuesOf(zCardDetails, plaintext);
  if (issues) {
    // Paths and zod's messages only: zod 4 does not put the input into its messages.
    const errors = issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
    throw new CardDetailsInvalidError(`The decrypted card details do not match the CardDetails schema (${errors.map((e) => e.path || '(body)').join(', ')}).`, errors);
  }
  const details = plaintext as CardDetails;
  if (!isLuhnValid(details.pan)) {
    throw new CardDetailsInvalidError('The decrypted PAN fails the Luhn check.', [{ path: 'pan', message: 'Fails the Luhn check' }]);
  }
  return details;
}

/** True when a string of digits passes the Luhn (mod 10) check. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]{2,}$/.test(digits)) return false;
  return luhnSum(digits, false) % 10 === 0;
}

/** The Luhn check digit to append to `partial` (digits only) so that the whole passes {@link isLuhnValid}. */
export function luhnCheckDigit(partial: string): string {
  if (!/^[0-9]+$/.test(partial)) throw new TypeError('luhnCheckDigit takes a string of digits.');
  return String((10 - (luhnSum(partial, true) % 10)) % 10);
}

function luhnSum(digits: string, doubleLast: boolean): number {
  let sum = 0;
  for (let i = digits.length - 1, double = doubleLast; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum;
}

// ------------------------------------------------------------------------------------------------ keys

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
    return requireWebCrypto().importKey('spki', await requireWebCrypto().exportKey('spki', key), RSA_OAEP_256, true, ['encrypt']);
  }
  if (isForgeKey(key) && typeof (key as Partial<RsaPublicKey>).encrypt === 'function') {
    checkBits(key.n.bitLength(), PublicKeyInvalidError, 'public');
    if (!subtle) return key as ForgePublicKey;
    return subtle.importKey('spki', asBuffer((await loadForge()).spkiOf(key as ForgePublicKey)), RSA_OAEP_256, true, ['encrypt']);
  }
  throw new PublicKeyInvalidError('The public key must be an RSA public key.');
}

async function importPrivatePem(pem: string, subtle: SubtleCrypto | undefined): Promise<CardPrivateKey> {
  const invalid = () => new PrivateKeyInvalidError('The private key is not a PEM RSA private key (PKCS#1 or PKCS#8).');
  const pkcs8 = /^\s*-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----\s*$/.exec(pem);
  if (subtle && pkcs8) {
    const der = base64Decode(pkcs8[1]!.replace(/\s+/g, ''));
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

// A forge key converted once, then reused (the conversion is an RSA key import).
const converted = new WeakMap<object, Promise<CryptoKey>>();

function nativeFromForge(key: ForgePrivateKey, subtle: SubtleCrypto): Promise<CryptoKey> {
  let native = converted.get(key);
  if (!native) {
    native = loadForge().then((forge) => subtle.importKey('pkcs8', asBuffer(forge.pkcs8Of(key)), RSA_OAEP_256, false, ['decrypt']));
    converted.set(key, native);
  }
  return native;
}

type KeyError = typeof PublicKeyInvalidError | typeof PrivateKeyInvalidError;

function checkRsaCryptoKey(key: CryptoKey, type: 'public' | 'private', Failure: KeyError): void {
  if (key.type !== type || !/^RSA/.test(key.algorithm.name)) throw new Failure(`The ${type} key must be an RSA ${type} key.`);
  checkBits((key.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength ?? 0, Failure, type);
}

function checkBits(bits: number, Failure: KeyError, type: 'public' | 'private'): void {
  if (bits < MIN_RSA_BITS) throw new Failure(`The ${type} key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`);
}

function requireWebCrypto(): SubtleCrypto {
  const subtle = webCrypto();
  if (!subtle) throw new PrivateKeyInvalidError('A CryptoKey needs Web Crypto (crypto.subtle), which this runtime does not have.');
  return subtle;
}

function isCryptoKey(value: unknown): value is CryptoKey {
  const k = value as Partial<CryptoKey> | null;
  return typeof k === 'object' && k !== null && typeof k.type === 'string' && typeof k.algorithm === 'object' && Array.isArray(k.usages);
}

function isForgeKey(value: unknown): value is { n: { bitLength(): number }; e: object } {
  const k = value as { n?: { bitLength?: unknown }; e?: unknown } | null;
  return typeof k === 'object' && k !== null && typeof k.n?.bitLength === 'function' && typeof k.e === 'object';
}

function isKeyPair(value: unknown): value is CardKeyPair {
  return typeof value === 'object' && value !== null && 'publicKey' in value && 'privateKey' in value;
}

function isAgreedHeader(header: unknown): boolean {
  if (typeof header !== 'object' || header === null) return false;
  const h = header as Record<string, unknown>;
  // `zip` and `crit` would change how the plaintext is read; the agreed form has neither.
  return h.alg === 'RSA-OAEP-256' && h.enc === 'A256GCM' && h.zip === undefined && h.crit === undefined;
}

// ------------------------------------------------------------------------------------------------ bytes

/** True when the bytes are one DER SEQUENCE and nothing after it (tag, definite length, content, end). */
function isWholeDerSequence(der: Uint8Array): boolean {
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

/** The view as an ArrayBuffer-backed Uint8Array, as Web Crypto's types want it. */
const asBuffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes as Uint8Array<ArrayBuffer>;

function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> | undefined {
  return base64Decode(text.replace(/-/g, '+').replace(/_/g, '/'));
}

function base64Decode(base64: string): Uint8Array<ArrayBuffer> | undefined {
  // A length of 4n+1 is no base64 at all; atob refuses it, and anything else that is not base64.
  try {
    return Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function asciiBytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// TextEncoder and TextDecoder where the runtime has them; percent-encoding where it does not (some React Native
// engines), which refuses invalid UTF-8 as TextDecoder's fatal mode does.
function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  if (typeof TextEncoder === 'function') return new TextEncoder().encode(text);
  const escaped = encodeURIComponent(text);
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    if (escaped[i] === '%') {
      bytes.push(parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(escaped.charCodeAt(i));
    }
  }
  return Uint8Array.from(bytes);
}

function utf8Decode(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    if (typeof TextDecoder === 'function') return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return decodeURIComponent(Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  } catch {
    return undefined;
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
