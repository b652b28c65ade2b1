/**
 * Server2Server cards: issuing (free configs at once, priced configs through a draft), charge and complete,
 * activation of physical cards, lists, card details (plaintext for encryption), and lock/unlock (control API).
 * @module
 */
import type { BalanceList, Card, CardCreate, CardDetails, CardList, CardOrDraft, Draft } from 'card-issuing-sdk';
import { luhnCheckDigit } from 'card-issuing-sdk';
import { cardMachine, draftMachine, initialStatus, transition, type CardTrigger } from '../machines';
import type { CardRecord } from '../store';
import { nowIso, type DomainContext } from './context';
import { conflict, notFound, unprocessable } from './errors';
import { balancesOf, cardsOf, findBalance, findCard, findUser } from './lookups';
import { balanceView, cardView, draftView, registrationStatus } from './views';
import { cardGenerated, cardStatusChanged } from '../observe/domain-events';

/** The fields of a new card that are not generated. */
export interface NewCard {
  id?: string;
  userId: string;
  type: CardRecord['type'];
  status: CardRecord['status'];
  cardholderName: string;
  configId: string | null;
  visualId: string | null;
  corporateUuid: string | null;
  approvalUuid: string | null;
}

function withLuhnDigit(partial: string): string {
  return partial + luhnCheckDigit(partial);
}

/** Makes and stores a card with a Luhn-valid PAN, CVV and expiry (4 years ahead) from the tenant's generator. */
export function issueCard(ctx: DomainContext, fields: NewCard): CardRecord {
  const now = new Date(ctx.now);
  const card: CardRecord = {
    id: fields.id ?? ctx.rng.uuid(),
    userId: fields.userId,
    type: fields.type,
    status: fields.status,
    pan: withLuhnDigit(`4000${ctx.rng.digits(11)}`),
    cvv: ctx.rng.digits(3),
    expiryMonth: now.getUTCMonth() + 1,
    expiryYear: Math.min(now.getUTCFullYear() + 4, 2100),
    cardholderName: fields.cardholderName.toUpperCase(),
    configId: fields.configId,
    visualId: fields.visualId,
    createdAt: nowIso(ctx),
    orderedAt: fields.status === 'ORDERED' ? nowIso(ctx) : null,
    corporateUuid: fields.corporateUuid,
    approvalUuid: fields.approvalUuid,
  };
  ctx.state.cards[card.id] = card;
  cardGenerated(ctx, card);
  cardStatusChanged(ctx, card, null);
  return card;
}

/**
 * Issues a card from a config and visual, checking the prerequisites in the spec's order. A free config gives
 * the card (virtual ACTIVE, physical ORDERED); a priced one gives a CREATED draft.
 */
export function createCard(ctx: DomainContext, userId: string, body: CardCreate): CardOrDraft {
  const user = findUser(ctx, userId);
  const config = ctx.state.catalogue.cardConfigs.find((c) => c.id === body.configId);
  if (!config) throw notFound('card config', body.configId);
  if (!config.visuals.some((v) => v.id === body.visualId)) {
    throw unprocessable('VISUAL_NOT_IN_CONFIG', `Visual ${body.visualId} is not one of config ${config.id}'s visuals.`);
  }
  if (registrationStatus(ctx.state, user) !== 'COMPLETED') {
    throw unprocessable('REGISTRATION_INCOMPLETE', 'The user has not signed every registration consent.');
  }
  if (!user.emailVerified) throw unprocessable('EMAIL_UNVERIFIED', "The user's e-mail is not verified.");
  if (user.kycStatus !== 'PASSED') throw unprocessable('KYC_NOT_PASSED', `The user's KYC is ${user.kycStatus}, not PASSED.`);
  const unsigned = config.consentIds.filter((id) => user.signedConsents[id] === undefined);
  if (unsigned.length > 0) throw unprocessable('CARD_CONSENTS_UNSIGNED', `Card consents not signed: ${unsigned.join(', ')}.`);

  const cardholderName = `${user.firstName} ${user.lastName}`;
  if (config.price === null) {
    const trigger: CardTrigger = config.type === 'VIRTUAL' ? 'issueVirtual' : 'issuePhysical';
    const card = issueCard(ctx, {
      userId: user.id, type: config.type, status: initialStatus(cardMachine, trigger), cardholderName,
      configId: config.id, visualId: body.visualId, corporateUuid: null, approvalUuid: null,
    });
    return cardView(card);
  }
  const price = config.price;
  const balance = balancesOf(ctx, user.id).find((b) => b.currency === price.currency) ?? balancesOf(ctx, user.id)[0];
  if (!balance) throw unprocessable('INSUFFICIENT_FUNDS', `The user has no ${price.currency} balance to pay for the card.`);
  const cardId = ctx.rng.uuid();
  ctx.state.drafts[cardId] = {
    cardId, userId: user.id, configId: config.id, visualId: body.visualId, type: config.type,
    status: initialStatus(draftMachine, 'createCard'), price: { ...price }, balanceId: balance.id,
    createdAt: nowIso(ctx), chargedAt: null,
  };
  return draftView(ctx.state.drafts[cardId]!);
}

/** The draft of `cardId`; a card that is not a draft is 409 CARD_NOT_A_DRAFT. */
function findDraft(ctx: DomainContext, cardId: string, operation: string) {
  const draft = ctx.state.drafts[cardId];
  if (draft) return draft;
  const card = findCard(ctx, cardId);
  throw conflict('CARD_NOT_A_DRAFT', `Card ${cardId} was not issued through a draft.`, card.status, operation);
}

/** Debits the draft's price: CREATED → CHARGED, or 422 INSUFFICIENT_FUNDS (the draft stays CREATED). */
export function chargeDraft(ctx: DomainContext, cardId: string): Draft {
  const draft = findDraft(ctx, cardId, 'chargeDraft');
  const next = transition(draftMachine, draft.status, 'chargeDraft');
  const balance = findBalance(ctx, draft.balanceId);
  if (balance.available < draft.price.amount) {
    throw unprocessable('INSUFFICIENT_FUNDS', `The balance holds ${balance.available} ${balance.currency} minor units; ${draft.price.amount} are needed.`);
  }
  balance.available -= draft.price.amount;
  balance.updatedAt = nowIso(ctx);
  ctx.emit({ type: 'balance.debited', balanceId: balance.id, userId: balance.userId, amount: { ...draft.price }, cardId: draft.cardId });
  draft.status = next;
  draft.chargedAt = nowIso(ctx);
  return draftView(draft);
}

/** Turns a charged draft into its card (virtual ACTIVE, physical ORDERED). */
export function completeDraft(ctx: DomainContext, cardId: string): Card {
  const draft = findDraft(ctx, cardId, 'completeDraft');
  draft.status = transition(draftMachine, draft.status, 'completeDraft');
  const user = findUser(ctx, draft.userId);
  const trigger: CardTrigger = draft.type === 'VIRTUAL' ? 'issueVirtual' : 'issuePhysical';
  const card = issueCard(ctx, {
    id: draft.cardId, userId: draft.userId, type: draft.type, status: initialStatus(cardMachine, trigger),
    cardholderName: `${user.firstName} ${user.lastName}`, configId: draft.configId, visualId: draft.visualId,
    corporateUuid: null, approvalUuid: null,
  });
  return cardView(card);
}

/** Activates a physical card whose order completed. */
export function activateCard(ctx: DomainContext, cardId: string): Card {
  const card = cardOrDraftConflict(ctx, cardId, 'CARD_NOT_ACTIVATABLE', 'activateCard');
  const from = card.status;
  card.status = transition(cardMachine, card.status, 'activateCard');
  cardStatusChanged(ctx, card, from);
  return cardView(card);
}

/** A card; a draft not completed yet is a 409 `code` (it is not a card yet); an unknown id is 404. */
function cardOrDraftConflict(ctx: DomainContext, cardId: string, code: string, operation: string): CardRecord {
  const draft = ctx.state.drafts[cardId];
  if (draft && !ctx.state.cards[cardId]) {
    throw conflict(code, `Card ${cardId} is still a draft (${draft.status}); charge and complete it first.`, draft.status, operation);
  }
  return findCard(ctx, cardId);
}

/** A user's balances. */
export function listBalances(ctx: DomainContext, userId: string): BalanceList {
  findUser(ctx, userId);
  return { items: balancesOf(ctx, userId).map(balanceView) };
}

/** A user's cards (a Server2Server user's, or a business user's), oldest first; drafts are not cards. */
export function listCards(ctx: DomainContext, userId: string): CardList {
  if (!ctx.state.users[userId] && !ctx.state.businessUsers[userId]) throw notFound('user', userId);
  return { items: cardsOf(ctx, userId).map(cardView) };
}

/**
 * The plaintext details of a card, served only for an ACTIVE card and, for a business card, only while its
 * approval is DELIVERED. The HTTP layer encrypts them to the caller's key.
 */
export function cardDetails(ctx: DomainContext, cardId: string, operation = 'getCardDetails'): CardDetails {
  const card = cardOrDraftConflict(ctx, cardId, 'CARD_NOT_ACTIVE', operation);
  if (card.approvalUuid !== null) {
    const approval = ctx.state.approvals[card.approvalUuid];
    if (approval && approval.status !== 'DELIVERED') {
      throw conflict('APPROVAL_NOT_DELIVERED', `Card details are served only while the approval is DELIVERED; it is ${approval.status}.`, approval.status, operation);
    }
  }
  if (card.status !== 'ACTIVE') {
    throw conflict('CARD_NOT_ACTIVE', `Card details are served only for an ACTIVE card; card ${card.id} is ${card.status}.`, card.status, operation);
  }
  return detailsOf(card);
}

/** The plaintext card details of a record. */
export function detailsOf(card: CardRecord): CardDetails {
  return { pan: card.pan, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, cvv: card.cvv, cardholderName: card.cardholderName };
}

/**
 * Locks or unlocks a card (control API): a business card only while its approval is DELIVERED
 * (409 APPROVAL_NOT_DELIVERED), any card only from ACTIVE (lock) or LOCKED (unlock) (409 INVALID_TRANSITION).
 */
export function setCardLock(ctx: DomainContext, cardId: string, action: 'lock' | 'unlock'): Card {
  const card = findCard(ctx, cardId);
  const operation = action === 'lock' ? 'lockCard' : 'unlockCard';
  if (card.approvalUuid !== null) {
    const approval = ctx.state.approvals[card.approvalUuid];
    if (approval && approval.status !== 'DELIVERED') {
      throw conflict('APPROVAL_NOT_DELIVERED', `A business card can be ${action}ed only while its approval is DELIVERED; it is ${approval.status}.`, approval.status, operation);
    }
  }
  const from = card.status;
  card.status = transition(cardMachine, card.status, operation);
  cardStatusChanged(ctx, card, from);
  return cardView(card);
}
