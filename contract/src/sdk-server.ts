/**
 * The SDK's server-side helpers (verifying a signature, the nonce cache, the string to sign, the Luhn check), through
 * one import: the SDK moves them to `card-issuing-sdk/server` (contract section 1), and this is the one line that
 * changes then.
 * @module
 */
export {
  buildStringToSign,
  createRequestGuard,
  isLuhnValid,
  NonceCache,
  parseAuthorization,
  SIGNATURE_TOLERANCE_SECONDS,
  verifySignature,
} from 'card-issuing-sdk/server';
