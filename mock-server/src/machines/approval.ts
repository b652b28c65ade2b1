/**
 * The approval's statuses and transitions: the interface document's section 3 table, with the decided steps
 * (PREPARED until `validFrom`, accepting a change request, an approval never delivered EXPIRED at `validTo`) and
 * the triggers of the control API. Rows that time moves carry their due instant (`due`); what entering a status
 * does (reserve, release, generate or close the card, end pending changes) is `domain/lifecycle.ts`.
 * @module
 */
import type { ApprovalStatus, ApprovalStatusReason } from 'card-issuing-sdk';
import type { Machine } from './machine';
import { UNCHANGED } from './machine';

/** What moves an approval. */
export type ApprovalTrigger =
  | 'createApproval'
  | 'registrationCompleted'
  | 'time'
  | 'cancel'
  | 'reject'
  | 'accept'
  | 'changeAccepted'
  | 'changedApprovalEnded'
  | 'changedApprovalTimedOut'
  | 'increaseApprovalBudget'
  | 'requestChange';

/** What the conditions and due instants of the table read. Instants are epoch milliseconds of the virtual clock. */
export interface ApprovalFacts {
  validFrom: number;
  validTo: number;
  expiresAt: number | null;
  /** When registration moved this instance on: the later of the user's registration and the instance's creation; null while the user has not registered. */
  registeredAt: number | null;
  /** For a change request: the status of the instance it changes. */
  changedStatus: ApprovalStatus | null;
}

/** "Exceeded": the first instant after `instant` (the document's FINISHED is "end date exceeded"). */
const after = (instant: number) => instant + 1;

/** The approval table. `from: null` rows make a new instance. */
export const approvalMachine: Machine<ApprovalStatus, ApprovalTrigger, ApprovalFacts, ApprovalStatusReason> = {
  name: 'approval',
  rows: [
    {
      from: null,
      trigger: 'createApproval',
      condition: 'initial creation',
      to: 'ACCEPTED',
      also: 'a card is issued (INACTIVE, not generated) and returned with the approval; the budget is reserved',
    },
    {
      from: ['ACCEPTED'],
      trigger: 'registrationCompleted',
      condition: 'registration is completed and validFrom has come',
      due: (f) => (f.registeredAt !== null && f.registeredAt >= f.validFrom ? f.registeredAt : null),
      to: 'DELIVERED',
      also: 'the card is generated and becomes ACTIVE',
    },
    {
      from: ['ACCEPTED'],
      trigger: 'registrationCompleted',
      condition: 'registration is completed before validFrom',
      due: (f) => (f.registeredAt !== null && f.registeredAt < f.validFrom ? f.registeredAt : null),
      to: 'PREPARED',
      also: 'the card is generated at validFrom',
    },
    {
      from: ['ACCEPTED'],
      trigger: 'time',
      condition: 'validTo is exceeded and the user never completed registration (decided)',
      due: (f) => after(f.validTo),
      to: 'EXPIRED',
      reason: 'NOT_DELIVERED_BY_VALID_TO',
      also: 'the budget is released; the card is CLOSED, never generated',
    },
    {
      from: ['PREPARED'],
      trigger: 'time',
      condition: 'validFrom has come',
      due: (f) => f.validFrom,
      to: 'DELIVERED',
      also: 'the card is generated and becomes ACTIVE',
    },
    {
      from: ['CREATED', 'ACCEPTED', 'PREPARED'],
      trigger: 'cancel',
      condition: 'none stated',
      to: 'CANCELED',
      reason: 'CANCELED_BY_CORPORATION',
      also: 'the reservation is released; the card is CLOSED unless a live instance still uses it',
    },
    {
      from: ['CREATED'],
      trigger: 'reject',
      condition: 'none stated (a reapproval)',
      to: 'REJECTED',
      reason: 'REJECTED_BY_CORPORATION',
    },
    {
      from: ['CREATED'],
      trigger: 'accept',
      condition: 'the instance it changes is ACCEPTED',
      when: (f) => f.changedStatus === 'ACCEPTED',
      to: 'ACCEPTED',
      also: 'it takes over the card, reservation and spending; the budget added is reserved',
    },
    {
      from: ['CREATED'],
      trigger: 'accept',
      condition: 'the instance it changes is DELIVERED',
      when: (f) => f.changedStatus === 'DELIVERED',
      to: 'DELIVERED',
      also: 'it takes over the card, reservation and spending; the budget added is reserved',
    },
    {
      from: ['CREATED'],
      trigger: 'time',
      condition: 'neither accepted nor rejected before expiresAt',
      due: (f) => f.expiresAt,
      to: 'EXPIRED',
      reason: 'CHANGE_NOT_DECIDED',
    },
    {
      from: ['CREATED'],
      trigger: 'changedApprovalEnded',
      condition: 'the corporation ends (cancels) or replaces the instance it changes first',
      to: 'CANCELED',
      reason: 'CHANGED_APPROVAL_ENDED',
    },
    // The document's EXPIRED is "neither accepted nor rejected before expiration"; CANCELED is the corporation's act.
    {
      from: ['CREATED'],
      trigger: 'changedApprovalTimedOut',
      condition: 'the instance it changes ends by time first (FINISHED, or EXPIRED undelivered)',
      to: 'EXPIRED',
      reason: 'CHANGE_NOT_DECIDED',
    },
    {
      from: ['DELIVERED'],
      trigger: 'time',
      condition: 'the end date (validTo) is exceeded',
      due: (f) => after(f.validTo),
      to: 'FINISHED',
      reason: 'VALIDITY_ENDED',
      also: 'what is left of the budget is released; the card is CLOSED',
    },
    {
      from: ['ACCEPTED', 'DELIVERED'],
      trigger: 'increaseApprovalBudget',
      condition: 'a reapproval is created for it',
      to: 'REAPPROVED',
      reason: 'REPLACED',
      also: 'the new instance keeps the same card, takes over this status, reservation and spending, budget + additionalBudget',
    },
    {
      from: ['ACCEPTED', 'DELIVERED'],
      trigger: 'changeAccepted',
      condition: 'the corporation accepts a change request of it',
      to: 'REAPPROVED',
      reason: 'REPLACED',
      also: 'the accepted change takes over this status, card, reservation and spending',
    },
    {
      from: ['ACCEPTED', 'DELIVERED'],
      trigger: 'requestChange',
      condition: 'the user requests a change (no other pending)',
      to: UNCHANGED,
      also: 'a new CREATED reapproval awaits the corporation (below); this instance stays in force',
    },
    {
      from: null,
      trigger: 'requestChange',
      condition: 'a reapproval requested by the user',
      to: 'CREATED',
      also: 'expiresAt = now + 72 h; nothing is reserved for it',
    },
  ],
};

/** Statuses in which an instance is in force or pending: every other status is final. */
export const LIVE_STATUSES: readonly ApprovalStatus[] = ['CREATED', 'ACCEPTED', 'PREPARED', 'DELIVERED'];

/** Statuses in which an instance holds a reservation of the corporate balance. */
export const RESERVING_STATUSES: readonly ApprovalStatus[] = ['ACCEPTED', 'PREPARED', 'DELIVERED'];

/** How long a CREATED reapproval waits for the corporation before it expires. */
export const REAPPROVAL_TTL_MS = 72 * 3600 * 1000;
