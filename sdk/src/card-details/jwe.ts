/**
 * The JWE that carries card details (contract section 3): the compact serialization of RFC 7516 with the protected
 * header `{"alg":"RSA-OAEP-256","enc":"A256GCM","cty":"application/json"}`: a fresh 256-bit content key wrapped
 * with RSA-OAEP (SHA-256, MGF1 with SHA-256), AES-256-GCM with a 96-bit IV and a 128-bit tag, and as additional
 * authenticated data the ASCII of the base64url protected header. Any JOSE library reads it.
 * @module
 */
import { fromBase64Url, utf8Decode } from './bytes';

/** The JWE protected header of encrypted card details. */
export const CARD_DETAILS_JWE_HEADER = { alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'application/json' } as const;

export function isAgreedHeader(header: unknown): boolean {
  if (typeof header !== 'object' || header === null) return false;
  const h = header as Record<string, unknown>;
  // `zip` and `crit` would change how the plaintext is read; the agreed form has neither.
  return h.alg === 'RSA-OAEP-256' && h.enc === 'A256GCM' && h.zip === undefined && h.crit === undefined;
}

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A compact JWE of the agreed form, its parts decoded (`protectedHeader` kept as sent: it is the additional data). */
export interface CompactJwe {
  protectedHeader: string;
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

/**
 * Reads a compact JWE of the agreed form without decrypting it: five base64url parts, a protected header with
 * `alg` RSA-OAEP-256 and `enc` A256GCM (no `zip`, no `crit`), a 96-bit IV and a 128-bit tag. Returns why not when it
 * is not one (the reason names the rule, never a part of the value).
 */
export function readCompactJwe(jwe: unknown): CompactJwe | { invalid: string } {
  const parts = typeof jwe === 'string' ? jwe.split('.') : [];
  if (parts.length !== 5 || parts.some((part, i) => !/^[A-Za-z0-9_-]*$/.test(part) || (part === '' && i !== 1))) {
    return { invalid: 'The encrypted card details are not a JWE compact serialization (five base64url parts).' };
  }
  const [protectedHeader, ...rest] = parts as [string, string, string, string, string];
  if (!isAgreedHeader(parseJson(utf8Decode(fromBase64Url(protectedHeader))))) {
    return { invalid: 'The JWE header is not {"alg":"RSA-OAEP-256","enc":"A256GCM"}.' };
  }
  const [encryptedKey, iv, ciphertext, tag] = rest.map(fromBase64Url);
  if (!encryptedKey || !ciphertext || iv?.length !== 12 || tag?.length !== 16) {
    return { invalid: 'The JWE must have a 96-bit IV and a 128-bit authentication tag.' };
  }
  return { protectedHeader, encryptedKey, iv, ciphertext, tag };
}
