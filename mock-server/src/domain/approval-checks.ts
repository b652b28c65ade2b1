/**
 * The checks an approval's budget must pass, on creation and on every change: the corporate's currency, and bounds.
 * @module
 */
import type { Money } from 'card-issuing-sdk';
import type { CorporateRecord } from '../store';
import { unprocessable } from './errors';

/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MIN = 100;
/** Budget bounds (decided): 1.00 to 1,000,000.00 in minor units. */
export const BUDGET_MAX = 100_000_000;

/** 422 CURRENCY_MISMATCH unless `money` is in the corporate's currency; `field` names it in the message. */
export function checkCurrency(corporate: CorporateRecord, money: Money, field: string): void {
  if (money.currency !== corporate.currency) {
    throw unprocessable(
      'CURRENCY_MISMATCH',
      `${field} is in ${money.currency}; the corporate balance is in ${corporate.currency}.`,
    );
  }
}

/** 422 BUDGET_OUT_OF_BOUNDS unless `total` (minor units) lies within the budget bounds; `what` names it. */
export function checkBounds(total: number, what: string): void {
  if (total < BUDGET_MIN || total > BUDGET_MAX) {
    throw unprocessable(
      'BUDGET_OUT_OF_BOUNDS',
      `${what} is ${total} minor units; it must be ${BUDGET_MIN} to ${BUDGET_MAX}.`,
    );
  }
}
