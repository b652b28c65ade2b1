/**
 * The Luhn (mod 10) check of card numbers: the SDK checks every decrypted PAN, a server makes valid ones.
 * @module
 */

/** True when a string of digits passes the Luhn (mod 10) check. */
export function isLuhnValid(digits: string): boolean {
  if (!/^[0-9]{2,}$/.test(digits)) return false;
  return luhnSum(digits, false) % 10 === 0;
}

/** The Luhn check digit to append to `partial` (digits only) so that the whole passes {@link isLuhnValid}. */
export function luhnCheckDigit(partial: string): string {
  if (!/^[0-9]+$/.test(partial)) throw new TypeError('luhnCheckDigit takes a string of digits.');
  return String((10 - (luhnSum(partial, true) % 10)) % 10);
}

function luhnSum(digits: string, doubleLast: boolean): number {
  let sum = 0;
  for (let i = digits.length - 1, double = doubleLast; i >= 0; i--, double = !double) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum;
}
