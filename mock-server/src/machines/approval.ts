/**
 * The approval's statuses and transitions: the interface document's section 3 table, with the decided
 * PREPARED step (an accepted approval waits for `validFrom`) and the decided triggers of the control API.
 * @module
 */
import type { ApprovalStatus } from 'card-issuing-sdk';
import type { Machine } from './machine';
import { UNCHANGED } from './machine';

/** What moves an approval. Time and the registration of the user are evaluated by the domain's settle. */
export type ApprovalTrigger =
  | 'createApproval'
  | 'registrationCompleted'
  | 'time'
  | 'cancel'
  | 'reject'
  | 'increaseApprovalBudget'
  | 'requestChange';

/** What the conditions of the table read. Instants are epoch milliseconds of the virtual clock. */
export interface ApprovalContext {
  now: number;
  validFrom: number;
  validTo: number;
  expiresAt: number | null;
}

/** The approval table. `from: null` rows make a new instance. */
export const approvalMachine: Machine<ApprovalStatus, ApprovalTrigger, ApprovalContext> = {
  name: 'approval',
  rows: [
    { from: null, trigger: 'createApproval', condition: 'initial creation', to: 'ACCEPTED',
      also: 'a card is issued (INACTIVE) and returned with the approval; the budget is reserved' },
    { from: ['ACCEPTED'], trigger: 'registrationCompleted', condition: 'registration is completed and validFrom has come',
      when: (c) => c.now >= c.validFrom, to: 'DELIVERED', also: 'the card becomes ACTIVE' },
    { from: ['ACCEPTED'], trigger: 'registrationCompleted', condition: 'registration is completed before validFrom',
      when: (c) => c.now < c.validFrom, to: 'PREPARED', also: 'the card is generated at validFrom' },
    { from: ['PREPARED'], trigger: 'time', condition: 'validFrom has come',
      when: (c) => c.now >= c.validFrom, to: 'DELIVERED', also: 'the card becomes ACTIVE' },
    { from: ['CREATED', 'ACCEPTED', 'PREPARED'], trigger: 'cancel', condition: 'none stated', to: 'CANCELED',
      also: 'the reservation is released; the card is CLOSED unless another live instance uses it' },
    { from: ['CREATED'], trigger: 'reject', condition: 'none stated (a reapproval)', to: 'REJECTED' },
    { from: ['CREATED'], trigger: 'time', condition: 'neither accepted nor rejected before expiresAt',
      when: (c) => c.expiresAt !== null && c.now >= c.expiresAt, to: 'EXPIRED' },
    { from: ['DELIVERED'], trigger: 'time', condition: 'the end date (validTo) is exceeded',
      when: (c) => c.now > c.validTo, to: 'FINISHED', also: 'the card is CLOSED; the reservation is released' },
    { from: ['ACCEPTED', 'DELIVERED'], trigger: 'increaseApprovalBudget', condition: 'a reapproval is created for it',
      to: 'REAPPROVED', also: 'the new instance keeps the same card, takes over this status and reservation, budget + additionalBudget' },
    { from: ['ACCEPTED', 'DELIVERED'], trigger: 'requestChange', condition: 'the user requests a change',
      to: UNCHANGED, also: 'a new CREATED reapproval awaits the corporation (below); this instance stays in force' },
    { from: null, trigger: 'requestChange', condition: 'a reapproval requested by the user', to: 'CREATED',
      also: 'expiresAt = now + 72 h; the requested budget is not reserved' },
  ],
};

/** Statuses in which an instance holds a reservation of the corporate balance. */
export const RESERVING_STATUSES: readonly ApprovalStatus[] = ['ACCEPTED', 'PREPARED', 'DELIVERED'];

/** How long a CREATED reapproval waits for the corporation before it expires. */
export const REAPPROVAL_TTL_MS = 72 * 3600 * 1000;
