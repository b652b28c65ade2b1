/**
 * Card statuses (decided: the interface names only LOCKED). Virtual cards are active at once; physical cards
 * are ordered, their order completes after a time on the virtual clock, then activation makes them active;
 * business cards are INACTIVE (and not generated) until their approval is DELIVERED, and CLOSED when it ends.
 * @module
 */
import type { CardStatus } from 'card-issuing-sdk';
import type { Machine } from './machine';

/** What moves a card. */
export type CardTrigger =
  | 'issueVirtual'
  | 'issuePhysical'
  | 'createApproval'
  | 'time'
  | 'activateCard'
  | 'approvalDelivered'
  | 'lockCard'
  | 'unlockCard'
  | 'close';

/** The time a physical card's order takes on the virtual clock. */
export const ORDER_COMPLETION_MS = 3 * 24 * 3600 * 1000;

/** The card table. */
export const cardMachine: Machine<CardStatus, CardTrigger> = {
  name: 'card',
  rows: [
    { from: null, trigger: 'issueVirtual', condition: 'a virtual card of a config', to: 'ACTIVE' },
    { from: null, trigger: 'issuePhysical', condition: 'a physical card of a config', to: 'ORDERED' },
    {
      from: null,
      trigger: 'createApproval',
      condition: 'a business card, issued with its approval; generated when it is DELIVERED',
      to: 'INACTIVE',
    },
    { from: ['ORDERED'], trigger: 'time', condition: '3 days after ordering', to: 'AWAITING_ACTIVATION' },
    { from: ['AWAITING_ACTIVATION'], trigger: 'activateCard', condition: 'the order has completed', to: 'ACTIVE' },
    { from: ['INACTIVE'], trigger: 'approvalDelivered', condition: 'its approval becomes DELIVERED', to: 'ACTIVE' },
    {
      from: ['ACTIVE'],
      trigger: 'lockCard',
      condition: 'business cards: only while the approval is DELIVERED',
      to: 'LOCKED',
    },
    {
      from: ['LOCKED'],
      trigger: 'unlockCard',
      condition: 'business cards: only while the approval is DELIVERED',
      to: 'ACTIVE',
    },
    {
      from: ['INACTIVE', 'ACTIVE', 'LOCKED'],
      trigger: 'close',
      condition: 'its approval ended (FINISHED, CANCELED or EXPIRED)',
      to: 'CLOSED',
    },
  ],
  refusals: [
    { trigger: 'activateCard', from: ['ORDERED'], code: 'CARD_ORDER_NOT_COMPLETED' },
    { trigger: 'activateCard', from: '*', code: 'CARD_NOT_ACTIVATABLE' },
  ],
};
