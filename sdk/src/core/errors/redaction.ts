/**
 * Redaction of what must never show in an error, a log line or an event: the api secret and the `Authorization`
 * header (given as values), card numbers, CVVs and JWEs (found by their form). Each is matched as a whole value,
 * never as a few characters inside a longer word: a one-letter secret `s` leaves `response` alone, and the digits of
 * a UUID or a request id are no card number.
 * @module
 * @internal
 */
import { isLuhnValid } from '../../luhn';

/** What replaces a redacted value. */
export const REDACTED = '[REDACTED]';

// A value stands alone when no letter, digit or one of the token characters touches it on either side.
const TOKEN_CHAR = /[A-Za-z0-9_+/=-]/;
// From this length a value is unmistakable: redacted wherever it appears, inside other text too (`req_<secret>`).
const UNMISTAKABLE = 8;

// 12 to 19 digits (ISO/IEC 7812), run together or in groups of four split by spaces or dashes, touching no word
// character or dash, nor a decimal point (the last group of an all-digit UUID, an amount, an id's tail are no cards).
const PAN_CANDIDATE =
  /(?<![\w-]|\d\.)(?:\d{12,19}|\d{4}(?:([ -])\d{4}){2,3}\1\d{1,7}|\d{4}([ -])\d{4}\2\d{4}(?:\2\d{1,4})?)(?![\w-]|\.\d)/g;

// A CVV (3 or 4 digits) right after a word that names it, with at most a few non-word characters between them:
// `cvv 123`, `CVC: 1234`, `"cvv":"123"`, `security code=123`.
const CVV = /\b(cvv2?|cvc2?|cav2|cid|csc|security[ _-]?code)\b(\W{0,4})\d{3,4}(?!\d)/gi;

// A JWE in compact form: five base64url parts, the first a protected header (`{"` is `eyJ`).
const JWE = /\beyJ[\w-]*\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+/g;

/** `text` with every card number (12-19 digits passing Luhn), CVV and JWE replaced by `[REDACTED]`. */
export function redactCardData(text: string): string {
  let out = text;
  if (/\d{3}/.test(out)) {
    out = out.replace(PAN_CANDIDATE, (match) => {
      const digits = match.replace(/[ -]/g, '');
      return digits.length >= 12 && digits.length <= 19 && isLuhnValid(digits) ? REDACTED : match;
    });
    out = out.replace(CVV, (_match, word: string, between: string) => `${word}${between}${REDACTED}`);
  }
  if (out.includes('eyJ')) out = out.replace(JWE, REDACTED);
  return out;
}

/**
 * `text` with every occurrence of each value (the api secret, the Authorization header) replaced by `[REDACTED]`.
 * A value of 8 characters or more is replaced wherever it appears; a shorter one only where it stands alone (no
 * letter, digit or token character `_+/=-` touches it), so a short secret never blanks letters out of words. Longer
 * values first, so a secret inside a header is not cut in two.
 */
export function redactValues(text: string, values: readonly (string | undefined)[] = []): string {
  let out = text;
  const sorted = values
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const value of sorted) {
    if (!out.includes(value)) continue;
    if (value.length >= UNMISTAKABLE) {
      out = out.split(value).join(REDACTED);
      continue;
    }
    out = redactStandalone(out, value);
  }
  return out;
}

/** Whether `value` found at `at` in `text` is part of a longer token: a token character touches it on either side. */
function insideToken(text: string, value: string, at: number): boolean {
  const before = at > 0 ? text[at - 1]! : '';
  const after = text[at + value.length] ?? '';
  return Boolean(
    (before && TOKEN_CHAR.test(before) && TOKEN_CHAR.test(value[0]!)) ||
      (after && TOKEN_CHAR.test(after) && TOKEN_CHAR.test(value.at(-1)!)),
  );
}

/** `text` with the occurrences of a short `value` that stand alone replaced by `[REDACTED]`. */
function redactStandalone(text: string, value: string): string {
  let result = '';
  let from = 0;
  for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
    if (at < from || insideToken(text, value, at)) continue;
    result += text.slice(from, at) + REDACTED;
    from = at + value.length;
  }
  return result + text.slice(from);
}

/** {@link redactValues} and then {@link redactCardData}: what every text an error or a log line holds goes through. */
export function redactText(text: string, values: readonly (string | undefined)[] = []): string {
  return redactCardData(redactValues(text, values));
}

/** A copy of `value` with {@link redactText} applied to every string in it, keys included (depth-bounded). */
export function redactDeep<T>(value: T, values: readonly (string | undefined)[] = [], depth = 0): T {
  if (typeof value === 'string') return redactText(value, values) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 32) return undefined as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, values, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactText(k, values)] = redactDeep(v, values, depth + 1);
  return out as T;
}
