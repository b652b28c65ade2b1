/**
 * Redaction of what the journal shows: no api secret, no Authorization header, no card number or CVV ever leaves
 * the mock through `requests()`, `/__mock/requests`, the event stream or the inspector page. The journal keeps the
 * raw text (cheap to capture) and redacts it when it is read, with the secrets the mock holds at that moment.
 * @module
 */

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

/** Headers whose value is never shown. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** JSON members whose value is never shown, whatever it is: card data, secrets, keys. */
const SECRET_KEYS =
  /^(pan|cardNumber|cvv|cvc|cvv2|pin|apiSecret|secret|password|privateKey|encryptedDetails|authorization)$/i;

/** Runs of 13 to 19 digits, possibly grouped by spaces or dashes: what a card number looks like. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;
/** In free text, any run of 9 or more digits: a card number cut by truncation is still part of one. */
const LONG_DIGIT_RUN = /\d(?:[ -]?\d){8,}/g;

/** Whatever still looks like a signature header in free text. */
const SIGNATURE = /HMAC-SHA256\s+\S+/gi;

/** A header list with the values of secret headers replaced. */
export function redactHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    out[key] = SECRET_HEADERS.has(key) ? REDACTED : value;
  }
  return out;
}

/** Luhn check of a digit string. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Masks card numbers in a string to their last four digits. In JSON strings only Luhn-valid runs of 13 to 19
 * digits are card numbers; in free text (a body that is not JSON, or was cut) every run of 9 or more digits is
 * masked, to be safe (a cut may have left the beginning of a number).
 */
export function maskCardNumbers(text: string, onlyLuhnValid: boolean): string {
  return text.replace(onlyLuhnValid ? DIGIT_RUN : LONG_DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    if (onlyLuhnValid && !luhn(digits)) return run;
    return `•••• ${digits.slice(-4)}`;
  });
}

/** Free text with every given secret and anything that looks like a signature header replaced. */
export function replaceSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  // Short strings are not replaced: "test" inside every word would make the journal unreadable, and a secret
  // that short is not one.
  for (const secret of secrets) if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(SIGNATURE, `HMAC-SHA256 ${REDACTED}`);
}

function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return maskCardNumbers(value, true);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      out[key] = SECRET_KEYS.test(key) && member !== null && member !== undefined ? REDACTED : redactValue(member);
    }
    return out;
  }
  return value;
}

/**
 * A body as the journal shows it: parsed JSON with secret members replaced and card numbers masked, or, for
 * anything else, the text with secrets replaced and every long digit run masked. `secrets` are the api secrets
 * of the mock (replaced wherever they appear). Null for no body.
 */
export function redactBody(text: string | null, secrets: readonly string[], truncated = false): unknown {
  if (text === null || text === '') return null;
  const cleaned = replaceSecrets(text, secrets);
  if (!truncated) {
    const first = cleaned.trimStart()[0];
    if (first === '{' || first === '[') {
      try {
        return redactValue(JSON.parse(cleaned));
      } catch {
        // Not JSON after all: shown as text below.
      }
    }
  }
  return maskCardNumbers(cleaned, false);
}

/** A request target (path and query) with secret-looking query values replaced. */
export function redactTarget(target: string, secrets: readonly string[]): string {
  const q = target.indexOf('?');
  if (q === -1) return replaceSecrets(target, secrets);
  const params = new URLSearchParams(target.slice(q + 1));
  const secret = /secret|password|token|signature|authorization/i;
  // Rebuilt only when needed: re-encoding would change how the target reads.
  if (![...params.keys()].some((name) => secret.test(name))) return replaceSecrets(target, secrets);
  for (const [name] of params) if (secret.test(name)) params.set(name, REDACTED);
  return replaceSecrets(`${target.slice(0, q)}?${params.toString()}`, secrets);
}
