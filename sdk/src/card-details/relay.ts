/**
 * Encrypted card details relayed, not read: what `getEncryptedDetails` returns is the JWE exactly as the service
 * sent it, checked to be a compact JWE of the agreed form (RSA-OAEP-256 + A256GCM) and never decrypted. A backend
 * that fetches details with a public key a browser made can pass them on without ever holding the card. Loaded with
 * the first relayed details (`../resources`), with the JWE reader: a page that never relays them never loads either.
 * @module
 */
import type { ApiResponse } from '../core/api-promise';
import { ResponseValidationError } from '../core/errors/classes';
import type { RequestOptions } from '../options';
import { readCompactJwe } from './jwe';

/** The options of a `getEncryptedDetails` call: the public key to encrypt to, and the call's options. */
export interface EncryptedDetailsRequestOptions extends RequestOptions {
  /**
   * The RSA public key (2048 or 4096 bits) to encrypt the details to: base64url without padding of its DER
   * SubjectPublicKeyInfo, as `createRevealKey()` (`card-issuing-sdk/reveal`) or `exportPublicKey()` gives it.
   */
  publicKey: string;
}

/**
 * The JWE of a details response, as sent, when it is a compact JWE of the agreed form; otherwise a
 * {@link ResponseValidationError} at `encryptedDetails` (the spec fixes the header), which holds no part of it.
 */
export async function relayedJwe(
  operation: string,
  response: ApiResponse<{ encryptedDetails: string }>,
): Promise<ApiResponse<string>> {
  const jwe = response.data.encryptedDetails;
  const read = readCompactJwe(jwe);
  if ('invalid' in read) {
    throw new ResponseValidationError({
      operation,
      status: response.status,
      requestId: response.requestId,
      errors: [{ path: 'encryptedDetails', message: read.invalid }],
    });
  }
  return { ...response, data: jwe };
}
