/**
 * The journal's redaction on hostile input: card numbers wherever and however they appear, secrets in any field
 * or in free text, signature headers, bodies that are not JSON or were cut mid-way.
 */
import { describe, expect, it } from 'vitest';
import {
  REDACTED,
  maskCardNumbers,
  redactBody,
  redactHeaders,
  redactTarget,
} from '../../mock-server/src/observe/redact';

const PAN = '4000123412341234'; // Luhn-valid
const SECRET = 'sk_live_very_secret_value';

describe('redaction of what the journal shows', () => {
  it('masks a Luhn-valid card number in any JSON string, grouped or not, and keeps other numbers', () => {
    expect(
      redactBody(
        JSON.stringify({
          note: `paid with ${PAN}`,
          grouped: '4000 1234 1234 1234',
          ts: 1795000000000,
          id: '1234567890123',
        }),
        [],
      ),
    ).toEqual({ note: 'paid with •••• 1234', grouped: '•••• 1234', ts: 1795000000000, id: '1234567890123' });
  });

  it('replaces card data and secret members whatever their value, at any depth', () => {
    const body = {
      cards: [{ pan: PAN, cvv: '123', last4: '1234' }],
      apiSecret: 'x',
      nested: { encryptedDetails: 'eyJ...', pin: '0000' },
    };
    expect(redactBody(JSON.stringify(body), [])).toEqual({
      cards: [{ pan: REDACTED, cvv: REDACTED, last4: '1234' }],
      apiSecret: REDACTED,
      nested: { encryptedDetails: REDACTED, pin: REDACTED },
    });
  });

  it('replaces every known secret wherever it appears, and anything that looks like a signature', () => {
    const text = JSON.stringify({
      message: `secret=${SECRET}`,
      header: 'HMAC-SHA256 test_key:c2lnbmF0dXJl:abc:1700000000',
    });
    const out = JSON.stringify(redactBody(text, [SECRET]));
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain('c2lnbmF0dXJl');
    expect(out).toContain(REDACTED);
  });

  it('masks every long digit run in a body that is not JSON, or was cut in the middle (no Luhn test then)', () => {
    expect(redactBody(`card ${PAN} and 1234567890123456`, [])).toBe('card •••• 1234 and •••• 3456');
    const cut = JSON.stringify({ cards: [{ pan: PAN }] }).slice(0, 30);
    expect(redactBody(cut, [], true)).not.toMatch(/\d{12,}/);
  });

  it('replaces secret headers and secret-looking query values, and leaves the rest as it is', () => {
    expect(
      redactHeaders([
        ['Authorization', 'HMAC-SHA256 k:s:n:t'],
        ['Cookie', 'a=b'],
        ['Content-Type', 'application/json'],
      ]),
    ).toEqual({ authorization: REDACTED, cookie: REDACTED, 'content-type': 'application/json' });
    expect(redactTarget('/s2s/cards?userId=1&publicKey=MIIB%2Babc', [])).toBe(
      '/s2s/cards?userId=1&publicKey=MIIB%2Babc',
    );
    expect(redactTarget(`/x?api_secret=${SECRET}&a=1`, [])).toBe(`/x?api_secret=${encodeURIComponent(REDACTED)}&a=1`);
    expect(maskCardNumbers('no digits here', true)).toBe('no digits here');
  });
});
