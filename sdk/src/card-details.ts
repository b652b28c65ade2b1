/**
 * Card details: RSA key pairs and the JWE that carries a card's PAN, expiry, CVV and cardholder name
 * (contract section 3). node-forge only (no `node:` import), so it runs in Node and in browsers alike; the mock
 * uses {@link encryptCardDetails}, integrators {@link generateCardKeyPair}, {@link exportPublicKey} and
 * {@link decryptCardDetails} (or the client's `getDetails` methods, which do all three).
 *
 * The JWE is the compact serialization of RFC 7516 with the protected header
 * `{"alg":"RSA-OAEP-256","enc":"A256GCM","cty":"application/json"}`: a fresh 256-bit content key wrapped with
 * RSA-OAEP (SHA-256, MGF1 with SHA-256), AES-256-GCM with a 96-bit IV and a 128-bit tag, and as additional
 * authenticated data the ASCII of the base64url protected header. Any JOSE library reads it.
 * @module
 */
import type Forge from 'node-forge';
import { forge } from './forge';
import { zCardDetails } from '../generated/zod.gen';
import type { CardDetails } from '../generated/types.gen';
import { CardDetailsDecryptionError, CardDetailsInvalidError, PrivateKeyInvalidError, PublicKeyInvalidError } from './errors';

/**
 * An RSA public key as node-forge makes it (`forge.pki.rsa.PublicKey`). Described by the members the SDK uses,
 * so that the package's types do not need `@types/node-forge`; any forge RSA public key fits.
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

/** An RSA key pair for card details: keep `privateKey` where it was made; send only the public key. */
export interface CardKeyPair {
  publicKey: RsaPublicKey;
  privateKey: RsaPrivateKey;
}

/** A public key as {@link encryptCardDetails} takes it: a key pair, a key, or the base64url DER SPKI of the query. */
export type CardPublicKeyInput = CardKeyPair | RsaPublicKey | string;

/** A private key as {@link decryptCardDetails} takes it: a key pair, a forge key, or PEM (PKCS#1 or PKCS#8). */
export type CardPrivateKeyInput = CardKeyPair | RsaPrivateKey | string;

/** The only key sizes the service accepts. */
export const CARD_KEY_BITS = [2048, 4096] as const;

/** The smallest RSA modulus accepted, in bits. */
export const MIN_RSA_BITS = 2048;

/** The JWE protected header of encrypted card details. */
export const CARD_DETAILS_JWE_HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'application/json' } as const;

const RSA_OAEP_SHA256 = () => ({ md: forge.md.sha256.create(), mgf1: { md: forge.md.sha256.create() } });

/**
 * Makes an RSA key pair for card details: 2048 bits by default, 4096 allowed. Uses Node's native key generation
 * when available (node-forge detects it), pure JavaScript in a browser (a 2048-bit key took about 3 s in V8
 * without Node's crypto; make one per session, not per request).
 */
export function generateCardKeyPair(options: { bits?: 2048 | 4096 } = {}): CardKeyPair {
  const bits = options.bits ?? 2048;
  if (!(CARD_KEY_BITS as readonly number[]).includes(bits)) {
    throw new PublicKeyInvalidError(`A card key pair has 2048 or 4096 bits, not ${String(bits)}.`);
  }
  const { publicKey, privateKey } = forge.pki.rsa.generateKeyPair({ bits, e: 0x10001 });
  return { publicKey, privateKey };
}

/**
 * The public key as the `publicKey` query parameter carries it: base64url without padding of the DER
 * SubjectPublicKeyInfo. A key that is not RSA or shorter than 2048 bits is refused (`PUBLIC_KEY_INVALID`).
 */
export function exportPublicKey(keyPairOrPublicKey: CardKeyPair | RsaPublicKey): string {
  const publicKey = checkPublicKey(isKeyPair(keyPairOrPublicKey) ? keyPairOrPublicKey.publicKey : keyPairOrPublicKey);
  return base64UrlEncode(forge.asn1.toDer(forge.pki.publicKeyToAsn1(publicKey)).getBytes());
}

/**
 * Reads a `publicKey` query parameter (base64url DER SubjectPublicKeyInfo) into an RSA public key. Throws
 * {@link PublicKeyInvalidError} (`code: 'PUBLIC_KEY_INVALID'`) when it is malformed, not RSA, or too short.
 */
export function importPublicKey(publicKey: string): RsaPublicKey {
  return readPublicKey(publicKey);
}

function readPublicKey(publicKey: string): Forge.pki.rsa.PublicKey {
  if (typeof publicKey !== 'string' || !/^[A-Za-z0-9_-]+$/.test(publicKey)) {
    throw new PublicKeyInvalidError('The public key must be base64url (without padding) of a DER SubjectPublicKeyInfo.');
  }
  let key: Forge.pki.PublicKey;
  try {
    const der = base64UrlDecode(publicKey);
    const asn1 = forge.asn1.fromDer(der, true); // strict, and every byte must parse
    key = forge.pki.publicKeyFromAsn1(asn1);
  } catch {
    // forge says "OID is not RSA" for an EC or Ed25519 key; the message is not ours to pass on.
    throw new PublicKeyInvalidError('The public key is not a DER SubjectPublicKeyInfo of an RSA key.');
  }
  return checkPublicKey(key);
}

/** Reads a private key given as a key pair, a forge key or PEM (PKCS#1 or PKCS#8), and checks it is RSA and 2048+ bits. */
export function importPrivateKey(privateKey: CardPrivateKeyInput): RsaPrivateKey {
  return readPrivateKey(privateKey);
}

function readPrivateKey(privateKey: CardPrivateKeyInput): Forge.pki.rsa.PrivateKey {
  let key: unknown = isKeyPair(privateKey) ? privateKey.privateKey : privateKey;
  if (typeof key === 'string') {
    try {
      key = forge.pki.privateKeyFromPem(key);
    } catch {
      throw new PrivateKeyInvalidError('The private key is not a PEM RSA private key (PKCS#1 or PKCS#8).');
    }
  }
  if (!isRsaKey(key) || typeof (key as Partial<Forge.pki.rsa.PrivateKey>).decrypt !== 'function') {
    throw new PrivateKeyInvalidError('The private key must be an RSA private key.');
  }
  const bits = key.n.bitLength();
  if (bits < MIN_RSA_BITS) throw new PrivateKeyInvalidError(`The private key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`);
  return key as Forge.pki.rsa.PrivateKey;
}

/**
 * Encrypts card details to a public key, as the service (and the mock) does: returns the JWE compact
 * serialization. `publicKey` is a key pair, a forge public key, or the base64url DER SPKI of the `publicKey` query
 * parameter. A key that is malformed, not RSA, or shorter than 2048 bits throws {@link PublicKeyInvalidError}
 * (`code === 'PUBLIC_KEY_INVALID'`), which a server answers with 400.
 */
export function encryptCardDetails(details: CardDetails, publicKey: CardPublicKeyInput): string {
  const key =
    typeof publicKey === 'string' ? readPublicKey(publicKey) : checkPublicKey(isKeyPair(publicKey) ? publicKey.publicKey : publicKey);
  const protectedHeader = base64UrlEncode(forge.util.encodeUtf8(JSON.stringify(CARD_DETAILS_JWE_HEADER)));
  const contentKey = forge.random.getBytesSync(32);
  const iv = forge.random.getBytesSync(12);
  const encryptedKey = key.encrypt(contentKey, 'RSA-OAEP', RSA_OAEP_SHA256());

  const cipher = forge.cipher.createCipher('AES-GCM', contentKey);
  cipher.start({ iv, additionalData: protectedHeader, tagLength: 128 });
  cipher.update(forge.util.createBuffer(forge.util.encodeUtf8(JSON.stringify(details))));
  cipher.finish();
  const ciphertext = cipher.output.getBytes();
  const tag = cipher.mode.tag.getBytes();
  return [protectedHeader, base64UrlEncode(encryptedKey), base64UrlEncode(iv), base64UrlEncode(ciphertext), base64UrlEncode(tag)].join('.');
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
export function decryptCardDetails(encryptedDetails: string, privateKey: CardPrivateKeyInput): CardDetails {
  const key = readPrivateKey(privateKey);
  const parts = typeof encryptedDetails === 'string' ? encryptedDetails.split('.') : [];
  if (parts.length !== 5 || parts.some((part, i) => !/^[A-Za-z0-9_-]*$/.test(part) || (part === '' && i !== 1))) {
    throw new CardDetailsDecryptionError('The encrypted card details are not a JWE compact serialization (five base64url parts).');
  }
  const [protectedHeader, encryptedKeyPart, ivPart, ciphertextPart, tagPart] = parts as [string, string, string, string, string];

  const header = parseJson(decodeUtf8(base64UrlDecode(protectedHeader)));
  if (!isAgreedHeader(header)) {
    throw new CardDetailsDecryptionError('The JWE header is not {"alg":"RSA-OAEP-256","enc":"A256GCM"}; refusing to decrypt it.');
  }
  const iv = base64UrlDecode(ivPart);
  const tag = base64UrlDecode(tagPart);
  if (iv.length !== 12 || tag.length !== 16) {
    throw new CardDetailsDecryptionError('The JWE must have a 96-bit IV and a 128-bit authentication tag.');
  }

  let contentKey: string;
  try {
    contentKey = key.decrypt(base64UrlDecode(encryptedKeyPart), 'RSA-OAEP', RSA_OAEP_SHA256());
  } catch {
    contentKey = '';
  }
  // One message for a wrong key and a bad tag, so that the error tells nothing about which check failed.
  const failed = () =>
    new CardDetailsDecryptionError('The card details could not be decrypted: encrypted to another key, or tampered with.');
  if (contentKey.length !== 32) throw failed();

  const decipher = forge.cipher.createDecipher('AES-GCM', contentKey);
  decipher.start({ iv, additionalData: protectedHeader, tagLength: 128, tag: forge.util.createBuffer(tag) });
  decipher.update(forge.util.createBuffer(base64UrlDecode(ciphertextPart)));
  if (!decipher.finish()) throw failed();

  const plaintext = parseJson(decodeUtf8(decipher.output.getBytes()));
  const parsed = zCardDetails.safeParse(plaintext);
  if (!parsed.success) {
    // Paths and zod's messages only: zod 4 does not put the input into its messages.
    const errors = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    throw new CardDetailsInvalidError(`The decrypted card details do not match the CardDetails schema (${errors.map((e) => e.path || '(body)').join(', ')}).`, errors);
  }
  if (!isLuhnValid(parsed.data.pan)) {
    throw new CardDetailsInvalidError('The decrypted PAN fails the Luhn check.', [{ path: 'pan', message: 'Fails the Luhn check' }]);
  }
  return parsed.data;
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

function checkPublicKey(key: unknown): Forge.pki.rsa.PublicKey {
  if (!isRsaKey(key) || typeof (key as Partial<Forge.pki.rsa.PublicKey>).encrypt !== 'function') {
    throw new PublicKeyInvalidError('The public key must be an RSA public key.');
  }
  const bits = key.n.bitLength();
  if (bits < MIN_RSA_BITS) throw new PublicKeyInvalidError(`The public key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`);
  return key as Forge.pki.rsa.PublicKey;
}

function isRsaKey(key: unknown): key is { n: Forge.jsbn.BigInteger; e: Forge.jsbn.BigInteger } {
  const k = key as { n?: { bitLength?: unknown }; e?: unknown } | null;
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

function base64UrlEncode(binary: string): string {
  return forge.util.encode64(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecode(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return forge.util.decode64(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
}

function decodeUtf8(binary: string): string {
  try {
    return forge.util.decodeUtf8(binary);
  } catch {
    return '';
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
