/**
 * `card-issuing-sdk/server`: what a server of this API needs, and a test double of one (the mock uses it): the
 * spec's operation table (operationId, method, path, success status, schema names) to route by, request signature
 * verification with its nonce cache, the pieces of the signature (string to sign, header, nonce), encryption of
 * card details to a caller's public key, Luhn check digits, and the Host and Origin guard of a server left running
 * on a developer's machine (DNS rebinding, cross-site requests). The spec's zod schemas the table names are the root
 * entry's `schemas`. Runs in Node 22+ and in browsers (the mock runs in a service worker).
 * @module card-issuing-sdk/server
 */

export { operationTable, type OperationId, type OperationRow } from './operation-table';
/** Each problem code's HTTP status, from the spec's `x-status` (null: a fault's injected status). */
export { problemStatus } from '../generated/problems.gen';

export {
  SIGNATURE_TOLERANCE_SECONDS,
  createSignatureVerifier,
  verifySignature,
  type SignatureErrorCode,
  type SignatureVerifier,
  type SignatureVerifierOptions,
  type SignedRequestInput,
  type VerifySignatureInput,
  type VerifySignatureResult,
} from './signing/verify';
export { NonceCache, type NonceCacheOptions } from './signing/nonce-cache';
export { buildStringToSign, type SignableBody } from './signing/string-to-sign';
export { parseAuthorization, type AuthorizationParts } from './signing/authorization';
export { createNonce } from './signing/nonce';
export { isBase64Secret, type SecretEncoding } from './signing/hmac-key';

export { encryptCardDetails } from './card-details/encrypt';
export { importPublicKey } from './card-details/keys';
export { CARD_DETAILS_JWE_HEADER } from './card-details/jwe';
export type { CardPublicKeyInput } from './card-details/types';
export { isLuhnValid, luhnCheckDigit } from './luhn';

export {
  createRequestGuard,
  type GuardRefusal,
  type RequestGuard,
  type RequestGuardOptions,
} from './request-guard';
