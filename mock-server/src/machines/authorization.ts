/**
 * A card authorization's life, as card sandboxes simulate it (Stripe Issuing's test helpers, Lithic, Marqeta): the
 * card network asks to authorize a purchase (approved: a hold; or declined with a reason), then raises the hold
 * (an incremental authorization), captures it (clearing), releases it (a reversal) or lets it expire; a captured one
 * can be refunded. Every row says what it does to the approval's `held`, `spent` and `remaining` and to the
 * corporate ledger (funded = available + reserved + spent; a hold is part of `reserved`: see `domain/holds.ts`);
 * a Server2Server card's hold is taken from its user's balance at once. The domain does it (`domain/authorizations.ts`,
 * the money moves in `domain/holds.ts`). A step whose amount no row allows (a capture above the hold plus tolerance, a
 * reversal above the hold, a refund above what is refundable) is 422 AMOUNT_EXCEEDS_AUTHORIZATION; a step the state has
 * no row for is 409 with the refusal's code.
 * @module
 */
import type { AuthorizationState } from '../store';
import type { Machine } from './machine';
import { UNCHANGED } from './machine';

export type { AuthorizationState } from '../store';

/** What moves an authorization. */
export type AuthorizationTrigger =
  | 'authorize'
  | 'increment'
  | 'capture'
  | 'forcedCapture'
  | 'reverse'
  | 'time'
  | 'refund'
  | 'credit';

/** What the conditions read: the amount of the step and the authorization's amounts before it (minor units). */
export interface AuthorizationFacts {
  /** The amount of this step. */
  amount: number;
  /** The hold now (PENDING). */
  held: number;
  /** What was captured and not yet refunded (CLEARED). */
  refundable: number;
  /** Whether the network approved it (creation rows). */
  approved: boolean;
  /** When a PENDING authorization expires, epoch ms. */
  expiresAt: number | null;
}

/**
 * A capture may exceed the hold by this many percent of it (tips, fuel), as card networks allow; the excess is spent
 * from the remaining budget. A whole number: the limit is computed on integers (minor units), never in floating point.
 */
export const CAPTURE_TOLERANCE_PERCENT = 15;

/** A hold not captured within this time on the virtual clock expires (Stripe Issuing's default). */
export const AUTHORIZATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * The largest capture of a hold: the hold plus {@link CAPTURE_TOLERANCE_PERCENT} % of it, rounded down to a minor unit
 * (100 → 115, 3,000 → 3,450, 99 → 113). Integer arithmetic only: `held × 15` and its remainder by 100 are exact for
 * every safe integer amount, so no hold loses a minor unit to floating point (`held * 1.15` did, for 2.5 % of them).
 */
export function captureLimit(held: number): number {
  const scaled = held * CAPTURE_TOLERANCE_PERCENT;
  return held + (scaled - (scaled % 100)) / 100;
}

/** The authorization table. */
export const authorizationMachine: Machine<AuthorizationState, AuthorizationTrigger, AuthorizationFacts> = {
  name: 'authorization',
  rows: [
    {
      from: null,
      trigger: 'authorize',
      condition: 'the network approves it (card usable, amount within the remaining budget or balance)',
      when: (f) => f.approved,
      to: 'PENDING',
      also: 'held += amount, remaining −= amount; the ledger moves nothing (the hold stays inside reserved). Server2Server: the balance −= amount',
    },
    {
      from: null,
      trigger: 'authorize',
      condition: 'the network declines it, with a reason',
      when: (f) => !f.approved,
      to: 'DECLINED',
      also: 'nothing moves',
    },
    {
      from: ['PENDING'],
      trigger: 'increment',
      condition: 'the network asks to raise the hold',
      to: UNCHANGED,
      also: 'approved (checked as an authorization): held += amount, remaining −= amount, the ledger moves nothing; declined: a step with its reason, nothing moves',
    },
    {
      from: ['PENDING'],
      trigger: 'capture',
      condition: 'amount ≤ hold × 1.15 (default: the hold)',
      when: (f) => f.amount <= captureLimit(f.held),
      to: 'CLEARED',
      also: 'held −= hold, spent += amount, remaining += hold − amount (an excess comes out of remaining); the ledger: reserved −= amount, spent += amount',
    },
    {
      from: ['PENDING', 'REVERSED', 'EXPIRED'],
      trigger: 'forcedCapture',
      condition:
        'the network forces it (unless strictCaptures): above hold × 1.15, above the remaining budget or balance, after a reversal or an expiry',
      to: 'CLEARED',
      also: 'held −= hold, spent += amount, remaining −= what the reservation gives; the ledger: reserved −= what it gives, the rest from available, then overdraft (the approval is overspent)',
    },
    {
      from: null,
      trigger: 'credit',
      condition: 'a merchant credits the card without a purchase (an unlinked refund)',
      to: 'REFUNDED',
      also: 'held += 0, spent += 0, remaining += 0 (no approval is touched); the ledger: funded += amount, available += amount (an overdraft repaid first). Server2Server: the balance += amount',
    },
    {
      from: ['PENDING'],
      trigger: 'reverse',
      condition: 'the whole hold is released (default)',
      when: (f) => f.amount === f.held,
      to: 'REVERSED',
      also: 'held −= amount, remaining += amount; the ledger moves nothing',
    },
    {
      from: ['PENDING'],
      trigger: 'reverse',
      condition: 'part of the hold is released',
      when: (f) => f.amount < f.held,
      to: UNCHANGED,
      also: 'held −= amount, remaining += amount; the ledger moves nothing',
    },
    {
      from: ['PENDING'],
      trigger: 'time',
      condition: '7 days after it was made, not captured',
      due: (f) => f.expiresAt,
      to: 'EXPIRED',
      also: 'as a whole reversal: held −= hold, remaining += hold; the ledger moves nothing',
    },
    {
      from: ['CLEARED'],
      trigger: 'refund',
      condition: 'all that was captured and not yet refunded (default)',
      when: (f) => f.amount === f.refundable,
      to: 'REFUNDED',
      also: 'spent −= amount, remaining += amount; the ledger: spent −= amount, reserved += amount',
    },
    {
      from: ['CLEARED'],
      trigger: 'refund',
      condition: 'part of what was captured',
      when: (f) => f.amount < f.refundable,
      to: UNCHANGED,
      also: 'spent −= amount, remaining += amount; the ledger: spent −= amount, reserved += amount',
    },
  ],
  refusals: [
    { trigger: 'capture', from: '*', code: 'AUTHORIZATION_NOT_PENDING' },
    { trigger: 'increment', from: '*', code: 'AUTHORIZATION_NOT_PENDING' },
    { trigger: 'reverse', from: '*', code: 'AUTHORIZATION_NOT_PENDING' },
    { trigger: 'refund', from: '*', code: 'AUTHORIZATION_NOT_CLEARED' },
  ],
};
