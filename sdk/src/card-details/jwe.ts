/**
 * The JWE that carries card details (contract section 3): the compact serialization of RFC 7516 with the protected
 * header `{"alg":"RSA-OAEP-256","enc":"A256GCM","cty":"application/json"}`: a fresh 256-bit content key wrapped
 * with RSA-OAEP (SHA-256, MGF1 with SHA-256), AES-256-GCM with a 96-bit IV and a 128-bit tag, and as additional
 * authenticated data the ASCII of the base64url protected header. Any JOSE library reads it.
 * @module
 */

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
