/**
 * Money in integers: every rule that takes a percentage or a ratio of an amount works on minor units, exactly. The
 * capture tolerance is checked over every hold from 1 to 1,000,000 against an independent BigInt computation and
 * against the authorization table's own row; the inspector reads typed amounts digit by digit; crypto amounts are
 * decimal strings worked in BigInt; a balance's overdraft is repaid first and taken last.
 */
import { describe, expect, it } from 'vitest';
import { authorizationMachine, CAPTURE_TOLERANCE_PERCENT, captureLimit } from '../../mock-server/src/machines';
import { toMinor } from '../../mock-server/src/inspector/page/format';
import { compareDecimal, creditedMinorUnits, payIn, payOut } from '../../mock-server/src/domain/money';

const captureRow = authorizationMachine.rows.find((r) => r.trigger === 'capture' && r.to === 'CLEARED')!;
const allows = (held: number, amount: number) =>
  captureRow.when!({ amount, held, refundable: 0, approved: true, expiresAt: null });

describe('the +15 % capture tolerance on integers', () => {
  it('a hold of 100 allows exactly 115, and 3,000 exactly 3,450', () => {
    expect(CAPTURE_TOLERANCE_PERCENT).toBe(15);
    expect(captureLimit(100)).toBe(115);
    expect(captureLimit(3_000)).toBe(3_450);
    expect(allows(100, 115)).toBe(true);
    expect(allows(100, 116)).toBe(false);
    expect(allows(3_000, 3_450)).toBe(true);
    expect(allows(3_000, 3_451)).toBe(false);
  });

  it('every hold from 1 to 1,000,000: the limit is hold + ⌊hold × 15 / 100⌋, the limit is allowed, one more is not', () => {
    const wrong: number[] = [];
    for (let held = 1; held <= 1_000_000; held++) {
      const expected = Number(BigInt(held) + (BigInt(held) * 15n) / 100n);
      const limit = captureLimit(held);
      if (limit !== expected || !allows(held, limit) || allows(held, limit + 1)) wrong.push(held);
    }
    // The first few that differ, not a million-line diff.
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('stays exact far above any card purchase (up to the largest safe amount / 15)', () => {
    for (const held of [2 ** 40 + 7, 99_999_999_999, Math.floor(Number.MAX_SAFE_INTEGER / 15)]) {
      expect(BigInt(captureLimit(held))).toBe(BigInt(held) + (BigInt(held) * 15n) / 100n);
    }
  });
});

describe('amounts typed in the inspector', () => {
  it('are read digit by digit: no floating point, no silent rounding of extra decimals', () => {
    expect(toMinor('0.29', 'EUR')).toBe(29);
    expect(toMinor('1.005', 'EUR')).toBeNaN();
    expect(toMinor('12.5', 'EUR')).toBe(1250);
    expect(toMinor(' 150 ', 'EUR')).toBe(15_000);
    expect(toMinor('1500', 'JPY')).toBe(1500);
    expect(toMinor('15.5', 'JPY')).toBeNaN();
    expect(toMinor('1e3', 'EUR')).toBeNaN();
    for (let cents = 0; cents < 100_000; cents += 7) {
      const text = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      if (toMinor(text, 'EUR') !== cents) expect(toMinor(text, 'EUR'), text).toBe(cents);
    }
  });
});

describe('crypto amounts as decimal strings', () => {
  it('credit floor(amount × rate) minor units, exactly, at any scale', () => {
    expect(creditedMinorUnits('10', '0.92')).toBe(920n);
    expect(creditedMinorUnits('0.019', '0.92')).toBe(1n); // 1.748 cents, floored
    expect(creditedMinorUnits('123456789.123456789', '1')).toBe(12_345_678_912n);
    expect(creditedMinorUnits('1.5', '2', 0)).toBe(3n);
  });

  it('compare across scales: -1, 0 or 1', () => {
    expect(compareDecimal('1.50', '1.5')).toBe(0);
    expect(compareDecimal('1.49', '1.5')).toBe(-1);
    expect(compareDecimal('2', '1.999')).toBe(1);
  });

  it('refuse what is not a plain non-negative decimal', () => {
    for (const text of ['1e3', '-1', '1.', '.5', ' 1', '1,5', ''])
      expect(() => creditedMinorUnits(text, '1'), text).toThrow(new TypeError(`Not a decimal amount: ${text}`));
    expect(() => compareDecimal('1', 'x')).toThrow(TypeError);
  });
});

describe("a balance's overdraft", () => {
  it('is repaid first by money in, and is what money out takes beyond the available balance', () => {
    const account = { available: 100, overdraft: 0 };
    payOut(account, 30);
    expect(account).toEqual({ available: 70, overdraft: 0 });
    payOut(account, 100);
    expect(account).toEqual({ available: 0, overdraft: 30 });
    payIn(account, 20);
    expect(account).toEqual({ available: 0, overdraft: 10 });
    payIn(account, 25);
    expect(account).toEqual({ available: 15, overdraft: 0 });
    const fresh: { available: number; overdraft?: number } = { available: 5 };
    payIn(fresh, 5);
    expect(fresh).toEqual({ available: 10 });
  });
});
