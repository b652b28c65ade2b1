/**
 * The key types of card details: a Web Crypto `CryptoKey`, or a node-forge key where there is no `crypto.subtle`.
 * @module
 */

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
