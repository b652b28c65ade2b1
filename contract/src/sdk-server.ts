/**
 * The SDK's server-side helpers, through one import: the SDK moves them to `card-issuing-sdk/server` (contract
 * section 1), and this is the one line that changes then.
 * @module
 */
export { NonceCache, verifySignature, type VerifySignatureResult } from 'card-issuing-sdk';
