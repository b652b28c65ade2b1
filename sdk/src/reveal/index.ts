/**
 * `card-issuing-sdk/reveal`: card details shown only on the cardholder's screen. In the browser,
 * {@link mountCardReveal} shows them inside a sandboxed iframe on another origin (the package's `frame.html`,
 * `card-issuing-sdk/reveal/frame.html`) that makes the key pair, hands out only its public key, and decrypts the
 * JWE a backend relayed with `getEncryptedDetails`. {@link createRevealKey} and {@link revealCardDetails} are the
 * same key and decryption for a frame of one's own.
 *
 * @example
 * ```ts
 * import { mountCardReveal } from 'card-issuing-sdk/reveal';
 * mountCardReveal(document.querySelector('#card')!, {
 *   frameUrl: 'https://reveal.example.com/frame.html',
 *   fetchEncrypted: async (publicKey) => (await fetch(`/api/cards/${cardId}/reveal?publicKey=${publicKey}`)).text(),
 * });
 * ```
 * @module card-issuing-sdk/reveal
 */

export { createRevealKey, revealCardDetails, type RevealKey } from './key';
export { mountCardReveal, type CardReveal, type MountCardRevealOptions } from './mount';
export {
  REVEAL_FIELDS,
  isRevealFrameMessage,
  isRevealHostMessage,
  type RevealField,
  type RevealFrameMessage,
  type RevealHostMessage,
  type RevealRequestMessage,
  type RevealStyle,
} from './messages';
export type { CardDetails } from '../../generated/types.gen';
