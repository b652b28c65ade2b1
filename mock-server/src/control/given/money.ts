/**
 * Money arrives the way it does on the service: a crypto deposit, credited at the deposit type's rate. To credit an
 * exact amount of minor units, the builders pick a type whose minimum deposit is worth no more than it and the
 * smallest crypto amount that credits exactly that much (credits are floor(amount × rate), 18 decimals are enough).
 * @module
 */
import type { TopUp } from 'card-issuing-sdk';
import { deposits } from '../../domain';
import { compareDecimal, creditedMinorUnits, MINOR_DIGITS } from '../../domain/money';
import type { CorporateRecord, DepositTypeRecord } from '../../store';
import { at, bad, type BuildContext } from './context';

const DECIMALS = 18n;

/** The crypto amount of `type` that credits exactly `minor` units, or undefined below the type's minimum deposit. */
export function cryptoFor(type: DepositTypeRecord, minor: number): string | undefined {
  const [whole, fraction = ''] = type.rate.split('.') as [string, string?];
  const rate = BigInt(whole + fraction);
  const rateScale = BigInt(fraction.length);
  // amount × rate × 10^MINOR ≥ minor  ⇔  amountUnits ≥ minor × 10^(DECIMALS + rateScale − MINOR) / rate
  const numerator = BigInt(minor) * 10n ** (DECIMALS + rateScale - BigInt(MINOR_DIGITS));
  const units = (numerator + rate - 1n) / rate;
  const text = units.toString().padStart(Number(DECIMALS) + 1, '0');
  const cut = text.length - Number(DECIMALS);
  const amount = `${text.slice(0, cut)}.${text.slice(cut)}`.replace(/\.?0+$/, '');
  if (compareDecimal(amount, type.minimumAmount) < 0) return undefined;
  return creditedMinorUnits(amount, type.rate) === BigInt(minor) ? amount : undefined;
}

/** The first deposit type (catalogue order) that can credit exactly `minor`, with its crypto amount. */
export function depositFor(
  b: BuildContext,
  minor: number,
  option: string,
): { type: DepositTypeRecord; amount: string } {
  for (const type of b.ctx.state.catalogue.depositTypes) {
    const amount = cryptoFor(type, minor);
    if (amount !== undefined) return { type, amount };
  }
  return bad(
    b,
    option,
    `Money arrives by a crypto deposit, worth at least ${smallestDeposit(b)} minor units: ask for 0 or at least that`,
  );
}

/** What the smallest deposit of any type credits, in minor units. */
export function smallestDeposit(b: BuildContext): number {
  return Math.min(
    ...b.ctx.state.catalogue.depositTypes.map((t) => Number(creditedMinorUnits(t.minimumAmount, t.rate))),
  );
}

/** A top-up of the corporate's balance crediting exactly `minor` units, now. */
export function topUpTo(b: BuildContext, corporate: CorporateRecord, minor: number): TopUp {
  const { type, amount } = depositFor(b, minor, 'available');
  const result = at(b, b.now, (ctx) =>
    deposits.incomingDeposit(ctx, { balanceId: corporate.balanceId, type: type.type, amount }),
  );
  if (result.kind !== 'topUp') throw new Error('A deposit to a corporate balance is a top-up.');
  return result.topUp;
}
