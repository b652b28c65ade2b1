/**
 * Bytes and text, the one place for base64, base64url, UTF-8 and binary strings (signing, card details and
 * node-forge all use them). Browser-safe: `btoa`/`atob`, and `TextEncoder`/`TextDecoder` where the runtime has them.
 * @module
 * @internal
 */

/** The view as an ArrayBuffer-backed Uint8Array, as Web Crypto's types want it. */
export const asBuffer = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => bytes as Uint8Array<ArrayBuffer>;

/** Bytes as a binary string (one char per byte), in chunks so that a large array does not overflow the stack. */
export function toBinaryString(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return binary;
}

/** A binary string (one char per byte, as `atob` and node-forge give them) as bytes. */
export function fromBinaryString(binary: string): Uint8Array<ArrayBuffer> {
  // A loop: `Uint8Array.from` with a mapping function costs about ten times as much (a signature check decodes one).
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  return btoa(toBinaryString(bytes));
}

/** Standard base64 (padding optional) as bytes, or undefined when the text is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  // A length of 4n is padded as it should be (at most two '=', checked above): decoded as it is, no copy.
  if (text.length % 4 === 0) return fromBinaryString(atob(text));
  // A length of 4n+1 is no base64 at all; atob refuses it.
  const body = text.replace(/=+$/, '');
  try {
    return fromBinaryString(atob(body + '='.repeat((4 - (body.length % 4)) % 4)));
  } catch {
    return undefined;
  }
}

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

// TextEncoder and TextDecoder where the runtime has them; percent-encoding where it does not (some React Native
// engines), which refuses invalid UTF-8 as TextDecoder's fatal mode does.

/** The UTF-8 bytes of a text. */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
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
