/**
 * The bytes only card details (and the reveal key) read and write: base64url (RFC 7515), ASCII, strict UTF-8
 * decoding, Web Crypto's buffer view. Apart from `../bytes` so that a client's page, which signs with base64 and
 * UTF-8 alone, does not carry them (bundlers ship a module shared with a lazy chunk whole).
 * @module
 * @internal
 */
import { fromBase64, fromBinaryString, toBase64 } from '../bytes';

/** The view as an ArrayBuffer-backed Uint8Array, as Web Crypto's types want it. */
export const asBuffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes as Uint8Array<ArrayBuffer>;

/** base64url without padding (RFC 7515 section 2). */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (padding optional) as bytes, or undefined when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return undefined;
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}

/** The bytes of an ASCII text (a JWE's protected header as its additional authenticated data). */
export function asciiBytes(text: string): Uint8Array<ArrayBuffer> {
  return fromBinaryString(text);
}

// TextDecoder where the runtime has it; percent-decoding where it does not (some React Native engines), which
// refuses invalid UTF-8 as TextDecoder's fatal mode does.

/** The text of UTF-8 bytes, or undefined when they are not valid UTF-8. */
export function utf8Decode(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    if (typeof TextDecoder === 'function') return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return decodeURIComponent(Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  } catch {
    return undefined;
  }
}
