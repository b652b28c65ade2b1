/**
 * Exact decimal arithmetic for crypto amounts (decimal strings) with BigInt: no floating point touches money.
 * @module
 */

/** Minor units per major unit of a fiat currency (every mock currency has 2 decimals). */
export const MINOR_DIGITS = 2;

/** A decimal string as an integer and a scale: "12.50" → { int: 1250n, scale: 2 }. */
function parseDecimal(text: string): { int: bigint; scale: number } {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new TypeError(`Not a decimal amount: ${text}`);
  const [whole, fraction = ''] = text.split('.') as [string, string?];
  return { int: BigInt(whole + fraction), scale: fraction.length };
}

/** floor(amount × rate) in minor units: what a crypto deposit credits to a fiat balance. */
export function creditedMinorUnits(amount: string, rate: string, minorDigits = MINOR_DIGITS): bigint {
  const a = parseDecimal(amount);
  const r = parseDecimal(rate);
  const numerator = a.int * r.int * 10n ** BigInt(minorDigits);
  return numerator / 10n ** BigInt(a.scale + r.scale); // BigInt division truncates: floor for non-negative values
}

/** -1, 0 or 1 as decimal string `a` is below, equal to or above `b`. */
export function compareDecimal(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  const scale = Math.max(x.scale, y.scale);
  const xi = x.int * 10n ** BigInt(scale - x.scale);
  const yi = y.int * 10n ** BigInt(scale - y.scale);
  return xi < yi ? -1 : xi > yi ? 1 : 0;
}

/** Money into a balance (a corporate's, or a user's): its overdraft is repaid first. */
export function payIn(account: { available: number; overdraft?: number }, amount: number): void {
  const repaid = Math.min(amount, account.overdraft ?? 0);
  if (repaid > 0) account.overdraft = (account.overdraft ?? 0) - repaid;
  account.available += amount - repaid;
}

/** Money out of a balance: what `available` does not cover becomes its overdraft (only forced captures go there). */
export function payOut(account: { available: number; overdraft?: number }, amount: number): void {
  const taken = Math.min(amount, account.available);
  account.available -= taken;
  if (amount > taken) account.overdraft = (account.overdraft ?? 0) + amount - taken;
}
