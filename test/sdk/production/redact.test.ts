import { describe, expect, it } from 'vitest';
import { isLuhnValid } from '../../../sdk/src/luhn';
import { REDACTED, redactCardData, redactDeep, redactText, redactValues } from '../../../sdk/src/core/errors/redaction';

describe('redaction of given values (the secret, the Authorization header)', () => {
  it('matches a short secret as a whole value only, never its letters inside words', () => {
    expect(redactValues('the response was slow; secret: s', ['s'])).toBe(`the response was slow; secret: ${REDACTED}`);
    expect(redactValues('response', ['s'])).toBe('response');
    expect(redactValues('secretsecret and "secret".', ['secret'])).toBe(`secretsecret and "${REDACTED}".`);
  });

  it('matches a secret of 8 characters or more wherever it appears, inside other text too', () => {
    expect(redactValues('req_sk_live_1234 https://x/sk_live_1234', ['sk_live_1234'])).toBe(
      `req_${REDACTED} https://x/${REDACTED}`,
    );
  });

  it('redacts a header holding the secret before the secret, so nothing of it is left', () => {
    const header = 'HMAC-SHA256 key:c2ln/bmE+dHVyZQ==:0123:1700000000';
    expect(redactValues(`got ${header}`, ['c2ln', header])).toBe(`got ${REDACTED}`);
  });

  it('redacts secrets that begin or end with punctuation wherever they stand', () => {
    expect(redactValues('key=!x!y', ['!x!y'])).toBe(`key=${REDACTED}`);
  });
});

describe('redaction of card data by its form', () => {
  it("turns the issue's problem detail into one without card data", () => {
    expect(redactText('card 4111111111111111 cvv 123 not found')).toBe(`card ${REDACTED} cvv ${REDACTED} not found`);
  });

  it.each([
    ['4000123412344246', true],
    ['4111 1111 1111 1111', true],
    ['4111-1111-1111-1111', true],
    ['378282246310005', true], // 15 digits (Amex)
    ['6011111111111117', true],
    ['4111111111111112', false], // fails Luhn
    ['12345678901', false], // 11 digits
  ])('%s is a card number: %s', (pan, redacted) => {
    expect(redactCardData(`pan ${pan}.`)).toBe(redacted ? `pan ${REDACTED}.` : `pan ${pan}.`);
  });

  it('leaves UUIDs, request ids, amounts and timestamps alone', () => {
    const text =
      'user 00000000-0000-4000-8000-000000000000 req_4111111111111111 amount 4111111111111111.50 at 1767225600123';
    expect(redactCardData(text)).toBe(text);
  });

  it('redacts a CVV only beside a word that names it', () => {
    expect(redactCardData('{"cvv":"123","expiryMonth":11}')).toBe(`{"cvv":"${REDACTED}","expiryMonth":11}`);
    expect(redactCardData('CVC: 1234, security code=987')).toBe(`CVC: ${REDACTED}, security code=${REDACTED}`);
    expect(redactCardData('retry 123 times')).toBe('retry 123 times');
  });

  it('redacts a compact JWE', () => {
    const jwe = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.a-_b.c_d.e-f.g_h';
    expect(redactCardData(`details ${jwe} end`)).toBe(`details ${REDACTED} end`);
  });

  it('checks Luhn as card numbers do', () => {
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
  });

  it('redacts deep: values and keys', () => {
    expect(redactDeep({ detail: 'card 4111111111111111', 's 4111111111111111': ['cvv 123'] }, ['s'])).toEqual({
      detail: `card ${REDACTED}`,
      [`${REDACTED} ${REDACTED}`]: [`cvv ${REDACTED}`],
    });
  });
});
