/**
 * Server2Server cards: issuing (free configs at once, priced configs through a draft), charge and complete,
 * activation of physical cards, lists, card details (plaintext for encryption), and lock/unlock (control API).
 * Card generation (number, expiry, CVV) for both areas. The `/s2s` operations never see a business card.
 * @module
 */
import type { BalanceList, Card, CardCreate, CardDetails, CardList, CardOrDraft, Draft } from 'card-issuing-sdk';
import { luhnCheckDigit } from 'card-issuing-sdk/server';
import { iso } from '../clock';
import { cardMachine, draftMachine, initialStatus, transition, type CardTrigger } from '../machines';
import type { CardRecord } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { conflict, notFound, unprocessable, type CodeOfStatus } from './errors';
import { balancesOf, cardsOf, findBalance, findCard, findS2sCard, findUser } from './lookups';
import { paginate, type PageQuery } from './pagination';
import { balanceView, cardView, draftView, registrationStatus } from './views';

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

/**
 * Makes and stores a card. A Server2Server card is generated at once; a business card (`generate: false`) only
 * when its approval becomes DELIVERED (the lifecycle calls {@link generateCard}).
 */
export function issueCard(ctx: DomainContext, fields: NewCard, options: { generate?: boolean } = {}): CardRecord {
  const card: CardRecord = {
    id: fields.id ?? ctx.rng.uuid(),
    userId: fields.userId,
    type: fields.type,
    status: fields.status,
    pan: null,
    cvv: null,
    expiryMonth: null,
    expiryYear: null,
    cardholderName: fields.cardholderName.toUpperCase(),
    configId: fields.configId,
    visualId: fields.visualId,
    createdAt: nowIso(ctx),
    generatedAt: null,
    orderedAt: fields.status === 'ORDERED' ? nowIso(ctx) : null,
    corporateUuid: fields.corporateUuid,
    approvalUuid: fields.approvalUuid,
  };
  ctx.state.cards[card.id] = card;
  emit(ctx, { type: 'card.statusChanged', at: card.createdAt, cardId: card.id, from: null, to: card.status });
  if (options.generate ?? true) generateCard(ctx, card, ctx.now);
  return card;
}

/** A card enters a status: the one place a card's status changes after it was made, so the one place `card.status` is emitted. */
export function setCardStatus(
  ctx: DomainContext,
  card: CardRecord,
  to: CardRecord['status'],
  at: number = ctx.now,
): void {
  if (card.status === to) return;
  const from = card.status;
  card.status = to;
  emit(ctx, { type: 'card.statusChanged', at: iso(at), cardId: card.id, from, to });
}

/**
 * Generates a card at instant `at` (once): a Luhn-valid PAN, a CVV and an expiry 4 years ahead, from the
 * tenant's generator. The one place a card is generated, so the one place `card.generated` is emitted.
 */
export function generateCard(ctx: DomainContext, card: CardRecord, at: number): void {
  if (card.generatedAt !== null) return;
  const when = new Date(at);
  card.pan = withLuhnDigit(`4000${ctx.rng.digits(11)}`);
  card.cvv = ctx.rng.digits(3);
  card.expiryMonth = when.getUTCMonth() + 1;
  card.expiryYear = Math.min(when.getUTCFullYear() + 4, 2100);
  card.generatedAt = iso(at);
  emit(ctx, {
    type: 'card.generated',
    at: card.generatedAt,
    cardId: card.id,
    userId: card.userId,
    cardType: card.type,
    last4: card.pan.slice(-4),
    approvalUuid: card.approvalUuid,
  });
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
  if (user.kycStatus !== 'PASSED')
    throw unprocessable('KYC_NOT_PASSED', `The user's KYC is ${user.kycStatus}, not PASSED.`);
  const unsigned = config.consentIds.filter((id) => user.signedConsents[id] === undefined);
  if (unsigned.length > 0)
    throw unprocessable('CARD_CONSENTS_UNSIGNED', `Card consents not signed: ${unsigned.join(', ')}.`);

  const cardholderName = `${user.firstName} ${user.lastName}`;
  if (config.price === null) {
    const trigger: CardTrigger = config.type === 'VIRTUAL' ? 'issueVirtual' : 'issuePhysical';
    const card = issueCard(ctx, {
      userId: user.id,
      type: config.type,
      status: initialStatus(cardMachine, trigger),
      cardholderName,
      configId: config.id,
      visualId: body.visualId,
      corporateUuid: null,
      approvalUuid: null,
    });
    return cardView(card);
  }
  const price = config.price;
  const balance = balancesOf(ctx, user.id).find((b) => b.currency === price.currency) ?? balancesOf(ctx, user.id)[0];
  if (!balance)
    throw unprocessable('INSUFFICIENT_FUNDS', `The user has no ${price.currency} balance to pay for the card.`);
  const cardId = ctx.rng.uuid();
  ctx.state.drafts[cardId] = {
    cardId,
    userId: user.id,
    configId: config.id,
    visualId: body.visualId,
    type: config.type,
    status: initialStatus(draftMachine, 'createCard'),
    price: { ...price },
    balanceId: balance.id,
    createdAt: nowIso(ctx),
    chargedAt: null,
  };
  return draftView(ctx.state.drafts[cardId]!);
}

/** The draft of `cardId`; a card that is not a draft is 409 CARD_NOT_A_DRAFT. */
function findDraft(ctx: DomainContext, cardId: string, operation: string) {
  const draft = ctx.state.drafts[cardId];
  if (draft) return draft;
  const card = findS2sCard(ctx, cardId);
  throw conflict('CARD_NOT_A_DRAFT', `Card ${cardId} was not issued through a draft.`, card.status, operation);
}

/** Debits the draft's price: CREATED → CHARGED, or 422 INSUFFICIENT_FUNDS (the draft stays CREATED). */
export function chargeDraft(ctx: DomainContext, cardId: string): Draft {
  const draft = findDraft(ctx, cardId, 'chargeDraft');
  const next = transition(draftMachine, draft.status, 'chargeDraft');
  const balance = findBalance(ctx, draft.balanceId);
  if (balance.available < draft.price.amount) {
    throw unprocessable(
      'INSUFFICIENT_FUNDS',
      `The balance holds ${balance.available} ${balance.currency} minor units; ${draft.price.amount} are needed.`,
    );
  }
  balance.available -= draft.price.amount;
  balance.updatedAt = nowIso(ctx);
  emit(ctx, {
    type: 'balance.debited',
    at: balance.updatedAt,
    balanceId: balance.id,
    userId: balance.userId,
    amount: { ...draft.price },
    cardId: draft.cardId,
  });
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
    id: draft.cardId,
    userId: draft.userId,
    type: draft.type,
    status: initialStatus(cardMachine, trigger),
    cardholderName: `${user.firstName} ${user.lastName}`,
    configId: draft.configId,
    visualId: draft.visualId,
    corporateUuid: null,
    approvalUuid: null,
  });
  return cardView(card);
}

/** Activates a physical card whose order completed. */
export function activateCard(ctx: DomainContext, cardId: string): Card {
  const card = cardOrDraftConflict(ctx, cardId, 'CARD_NOT_ACTIVATABLE', 'activateCard');
  setCardStatus(ctx, card, transition(cardMachine, card.status, 'activateCard'));
  return cardView(card);
}

/** A card; a draft not completed yet is a 409 `code` (it is not a card yet); an unknown id is 404. */
function cardOrDraftConflict(
  ctx: DomainContext,
  cardId: string,
  code: CodeOfStatus<409>,
  operation: string,
): CardRecord {
  const draft = ctx.state.drafts[cardId];
  if (draft && !ctx.state.cards[cardId]) {
    throw conflict(
      code,
      `Card ${cardId} is still a draft (${draft.status}); charge and complete it first.`,
      draft.status,
      operation,
    );
  }
  return findS2sCard(ctx, cardId);
}

/** A user's balances, oldest first, one page. */
export function listBalances(ctx: DomainContext, userId: string, query: PageQuery = {}): BalanceList {
  findUser(ctx, userId);
  return paginate(ctx, `listBalances/${userId}`, balancesOf(ctx, userId), (b) => b.id, query, balanceView);
}

/** A Server2Server user's cards, oldest first, one page; drafts are not cards, business users not `/s2s` users. */
export function listCards(ctx: DomainContext, userId: string, query: PageQuery = {}): CardList {
  findUser(ctx, userId);
  const cards = cardsOf(ctx, userId).filter((c) => c.corporateUuid === null);
  return paginate(ctx, `listCards/${userId}`, cards, (c) => c.id, query, cardView);
}

/**
 * The plaintext details of a Server2Server card, served only for an ACTIVE card (a business card is 404 here:
 * its details are the approval's). The HTTP layer encrypts them to the caller's key.
 */
export function cardDetails(ctx: DomainContext, cardId: string, operation = 'getCardDetails'): CardDetails {
  return activeCardDetails(cardOrDraftConflict(ctx, cardId, 'CARD_NOT_ACTIVE', operation), operation);
}

/**
 * The plaintext details of any card, Server2Server or business (control API: the inspector's reveal), served only
 * for an ACTIVE card; 404 for an unknown card. The control layer encrypts them to the caller's key.
 */
export function anyCardDetails(ctx: DomainContext, cardId: string): CardDetails {
  return activeCardDetails(findCard(ctx, cardId), 'mock.cards.details');
}

/** The details of a card that is ACTIVE; any other status is 409 CARD_NOT_ACTIVE (a Server2Server or a business card). */
export function activeCardDetails(card: CardRecord, operation: string): CardDetails {
  if (card.status !== 'ACTIVE') {
    throw conflict(
      'CARD_NOT_ACTIVE',
      `Card details are served only for an ACTIVE card; card ${card.id} is ${card.status}.`,
      card.status,
      operation,
    );
  }
  return detailsOf(card);
}

/** The plaintext card details of a generated card (only an ACTIVE card is ever asked, and every ACTIVE card is generated). */
function detailsOf(card: CardRecord): CardDetails {
  if (card.pan === null || card.cvv === null || card.expiryMonth === null || card.expiryYear === null) {
    throw new Error(`Card ${card.id} is not generated yet`);
  }
  return {
    pan: card.pan,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    cvv: card.cvv,
    cardholderName: card.cardholderName,
  };
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
      throw conflict(
        'APPROVAL_NOT_DELIVERED',
        `A business card can be ${action}ed only while its approval is DELIVERED; it is ${approval.status}.`,
        approval.status,
        operation,
      );
    }
  }
  setCardStatus(ctx, card, transition(cardMachine, card.status, operation));
  return cardView(card);
}
