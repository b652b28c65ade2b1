/**
 * Card draft statuses (decided): CREATED -> charge -> CHARGED -> complete -> COMPLETED.
 * @module
 */
import type { Machine } from './machine';

/** A draft's status. */
export type DraftStatus = 'CREATED' | 'CHARGED' | 'COMPLETED';
/** What moves a draft. */
export type DraftTrigger = 'createCard' | 'chargeDraft' | 'completeDraft';

/** The draft table. The balance check of a charge is a 422 (INSUFFICIENT_FUNDS) made by the domain. */
export const draftMachine: Machine<DraftStatus, DraftTrigger> = {
  name: 'draft',
  rows: [
    { from: null, trigger: 'createCard', condition: 'the config has a price', to: 'CREATED' },
    {
      from: ['CREATED'],
      trigger: 'chargeDraft',
      condition: 'the balance covers the price',
      to: 'CHARGED',
      also: 'the price is debited',
    },
    { from: ['CHARGED'], trigger: 'completeDraft', condition: 'none', to: 'COMPLETED', also: 'the card is issued' },
  ],
  refusals: [
    { trigger: 'chargeDraft', from: ['CHARGED', 'COMPLETED'], code: 'DRAFT_ALREADY_CHARGED' },
    { trigger: 'completeDraft', from: ['CREATED'], code: 'DRAFT_NOT_CHARGED' },
    { trigger: 'completeDraft', from: ['COMPLETED'], code: 'DRAFT_ALREADY_COMPLETED' },
  ],
};
