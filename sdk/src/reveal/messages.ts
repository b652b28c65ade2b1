/**
 * The messages between a page and its reveal frame (`mountCardReveal` and `frame.html`), typed, and the checks
 * each side runs on what it receives. Nothing in them is card data: the frame sends its public key, a report of
 * what it showed (field names), its height and errors (codes and texts that never hold a value); the page sends
 * the JWE, which only the frame's private key opens.
 * @module
 */

/** The fields a reveal frame can show, in the order it shows them. */
export const REVEAL_FIELDS = ['number', 'expiry', 'cvv', 'cardholder'] as const;
/** A field of the card a reveal frame shows: the number, the expiry (MM/YY), the CVV or the cardholder's name. */
export type RevealField = (typeof REVEAL_FIELDS)[number];

/** The look of a reveal frame: CSS values for the few properties it lets the page set (no URLs). */
export interface RevealStyle {
  /** The text colour. */
  color?: string;
  /** The background. */
  background?: string;
  /** The font stack, e.g. `'Inter, system-ui, sans-serif'`. */
  fontFamily?: string;
  /** The font size of the values, e.g. `'16px'`. */
  fontSize?: string;
  /** The colour of the labels. */
  labelColor?: string;
  /** The colour of the copy buttons. */
  accentColor?: string;
}
const STYLE_KEYS = ['color', 'background', 'fontFamily', 'fontSize', 'labelColor', 'accentColor'] as const;
/** A CSS value the frame accepts: colours, lengths, font names; no `url(`, no escapes, no `;`. */
const CSS_VALUE = /^(?!.*url\s*\()[#(),.%'"\w\s-]{1,120}$/i;

/** From the page to its frame: the JWE to reveal, which fields and how. */
export interface RevealRequestMessage {
  type: 'card-reveal:reveal';
  /** The details JWE the backend relayed, encrypted to the frame's public key. */
  jwe: string;
  fields: RevealField[];
  style: RevealStyle;
}
/** Every message the page sends its frame. */
export type RevealHostMessage = RevealRequestMessage;

/** Every message a reveal frame sends the page (none holds card data). */
export type RevealFrameMessage =
  /** The frame made its key pair: the public half, base64url DER SPKI, as `publicKey` takes it. */
  | { type: 'card-reveal:ready'; publicKey: string }
  /** The frame decrypted the details and shows these fields. */
  | { type: 'card-reveal:revealed'; fields: RevealField[] }
  /** The user copied a field (to the clipboard, from inside the frame). */
  | { type: 'card-reveal:copied'; field: RevealField }
  /** The frame's content height in CSS pixels, for the page to size the iframe. */
  | { type: 'card-reveal:resize'; height: number }
  /** The frame could not reveal: a code of the SDK's errors (`CARD_DETAILS_DECRYPTION_FAILED`, ...) and a text. */
  | { type: 'card-reveal:error'; code: string; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFieldList = (value: unknown): value is RevealField[] =>
  Array.isArray(value) &&
  value.length <= REVEAL_FIELDS.length &&
  value.every((f) => (REVEAL_FIELDS as readonly unknown[]).includes(f));
const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

/** True for a style the frame applies: known keys only, each a plain CSS value. */
export function isRevealStyle(value: unknown): value is RevealStyle {
  return (
    isRecord(value) &&
    Object.entries(value).every(
      ([key, v]) => (STYLE_KEYS as readonly string[]).includes(key) && typeof v === 'string' && CSS_VALUE.test(v),
    )
  );
}

/** The check a frame runs on a message's data before it acts on it. */
export function isRevealHostMessage(data: unknown): data is RevealHostMessage {
  return (
    isRecord(data) &&
    data.type === 'card-reveal:reveal' &&
    isText(data.jwe, 16_384) &&
    isFieldList(data.fields) &&
    isRevealStyle(data.style)
  );
}

/** The check a page runs on a message's data before it acts on it. */
export function isRevealFrameMessage(data: unknown): data is RevealFrameMessage {
  if (!isRecord(data)) return false;
  switch (data.type) {
    case 'card-reveal:ready':
      return isText(data.publicKey, 2048) && /^[A-Za-z0-9_-]{64,}$/.test(data.publicKey);
    case 'card-reveal:revealed':
      return isFieldList(data.fields);
    case 'card-reveal:copied':
      return (REVEAL_FIELDS as readonly unknown[]).includes(data.field);
    case 'card-reveal:resize':
      return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0;
    case 'card-reveal:error':
      return isText(data.code, 100) && isText(data.message, 1000);
    default:
      return false;
  }
}
