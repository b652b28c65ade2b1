/**
 * The HMAC key of an api secret, for the signer and the verifier alike. The published page does not say how the
 * secret becomes the key; its C# sample resembles one that base64-decodes it. So the encoding is an option:
 * `'utf8'` (the default) hashes the secret's characters, `'base64'` the bytes it encodes.
 * @module
 */
import { fromBase64, utf8Encode } from '../bytes';

/**
 * How the api secret becomes the HMAC key: its UTF-8 bytes (`'utf8'`, the default) or the bytes it encodes in
 * base64 (`'base64'`, for a service that issues secrets as base64 of random bytes and decodes them to sign).
 */
export type SecretEncoding = 'utf8' | 'base64';

/**
 * Whether a secret can be used with `secretEncoding: 'base64'`: standard base64 (padding optional) of at least one
 * byte, the same test the signer and the verifier apply.
 */
export function isBase64Secret(secret: string): boolean {
  return (fromBase64(secret)?.length ?? 0) > 0;
}

/** The HMAC key of a secret: the string itself (hashed as UTF-8) or the bytes its base64 encodes. */
export function hmacKeyOf(secret: string, encoding: SecretEncoding, caller: string): string | Uint8Array<ArrayBuffer> {
  if (encoding === 'utf8') return secret;
  if (encoding !== 'base64') throw new TypeError(`${caller}: secretEncoding must be 'utf8' or 'base64'.`);
  const bytes = fromBase64(secret);
  // Never quote the secret: say only what is wrong with it.
  if (!bytes || bytes.length === 0)
    throw new TypeError(`${caller}: apiSecret is not base64, as secretEncoding 'base64' requires.`);
  return bytes;
}

/** A Web Crypto HMAC-SHA256 key. */
export function importHmacKey(key: string | Uint8Array<ArrayBuffer>, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    typeof key === 'string' ? utf8Encode(key) : key,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage],
  );
}
