/**
 * Bytes and text, the one place for base64, UTF-8 and binary strings (signing, card details and node-forge all use
 * them; what only card details read and write, base64url and strict UTF-8 decoding, is `./card-details/bytes`, off
 * the client's page). Browser-safe: `btoa`/`atob`, and `TextEncoder` where the runtime has it.
 * @module
 * @internal
 */

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

// TextEncoder where the runtime has it; percent-encoding where it does not (some React Native engines).

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
