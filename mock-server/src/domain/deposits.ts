/**
 * Deposits of users' balances (Server2Server and Wallet App alike: a `balanceUuid` is a `balanceId`) and of
 * corporates: types, addresses (one per balance and type), incoming deposits (control API), verifications and
 * their approval. Credited amounts are computed exactly (BigInt) and credited exactly once.
 * @module
 */
import type {
  DepositAddress,
  DepositAddressList,
  DepositOptions,
  DepositTypeList,
  DepositVerification,
  DepositVerificationList,
  Money,
  TopUp,
  VerificationData,
} from 'card-issuing-sdk';
import { initialStatus, transition, verificationMachine } from '../machines';
import { makeAddress, type BalanceRecord, type VerificationRecord } from '../store';
import { emit, nowIso, type DomainContext } from './context';
import { ProblemError, notFound, unprocessable } from './errors';
import {
  balancesOf,
  corporateByBalanceId,
  corporateDepositAddressesOf,
  depositAddressesOf,
  findBalance,
  findDepositType,
  findUser,
  findVerification,
  verificationsOfBalance,
  verificationsOfUser,
} from './lookups';
import { compareDecimal, creditedMinorUnits, payIn } from './money';
import { MAX_MONEY } from './spec-bounds';
import { paginate, type PageQuery } from './pagination';
import { depositAddressView, depositTypeView, topUpView, verificationView } from './views';

/** The deposit types of one balance, catalogue order, one page. */
export function listDepositTypes(ctx: DomainContext, balanceId: string, query: PageQuery = {}): DepositTypeList {
  const balance = findBalance(ctx, balanceId);
  return paginate(
    ctx,
    `listDepositTypes/${balanceId}`,
    typesOf(ctx, balance),
    (t) => t.type,
    query,
    (t) => t,
  );
}

/** The deposit types of every balance of a user (Wallet App): balances oldest first, one page. */
export function listAppDepositTypes(ctx: DomainContext, userUuid: string, query: PageQuery = {}): DepositTypeList {
  findUser(ctx, userUuid);
  const types = balancesOf(ctx, userUuid).flatMap((b) => typesOf(ctx, b));
  return paginate(
    ctx,
    `listAppDepositTypes/${userUuid}`,
    types,
    (t) => `${t.balanceId}/${t.type}`,
    query,
    (t) => t,
  );
}

function typesOf(ctx: DomainContext, balance: BalanceRecord) {
  const user = findUser(ctx, balance.userId);
  return ctx.state.catalogue.depositTypes
    .filter((t) => t.currency === balance.currency)
    .map((t) => depositTypeView(ctx.state, t, balance, user));
}

/** The addresses of a balance and type (empty until one is created), oldest first, one page of `operation`'s list. */
export function listDepositAddresses(
  ctx: DomainContext,
  balanceId: string,
  type: string,
  query: PageQuery = {},
  operation = 'listDepositAddresses',
): DepositAddressList {
  findBalance(ctx, balanceId);
  findDepositType(ctx, type);
  return paginate(
    ctx,
    `${operation}/${balanceId}/${type}`,
    addressesOf(ctx, balanceId, type),
    (a) => a.id,
    query,
    depositAddressView,
  );
}

function addressesOf(ctx: DomainContext, balanceId: string, type: string) {
  return depositAddressesOf(ctx, balanceId, type);
}

/**
 * Has the deposits service issue an address: the network must be one of the type's (422), the type's consents
 * signed (422), and no address may exist yet for this balance and type (409).
 */
export function createDepositAddress(
  ctx: DomainContext,
  balanceId: string,
  type: string,
  options: DepositOptions,
): DepositAddress {
  const balance = findBalance(ctx, balanceId);
  const depositType = findDepositType(ctx, type);
  if (!depositType.networks.includes(options.network)) {
    throw unprocessable(
      'NETWORK_NOT_SUPPORTED',
      `${type} arrives on ${depositType.networks.join(', ')}, not ${options.network}.`,
    );
  }
  const user = findUser(ctx, balance.userId);
  const unsigned = depositType.consentIds.filter((id) => user.signedConsents[id] === undefined);
  if (unsigned.length > 0)
    throw unprocessable('DEPOSIT_CONSENTS_UNSIGNED', `Deposit consents not signed: ${unsigned.join(', ')}.`);
  const existing = addressesOf(ctx, balanceId, type)[0];
  if (existing) {
    throw new ProblemError(
      'DEPOSIT_ADDRESS_EXISTS',
      `Balance ${balanceId} already has a ${type} address (${existing.id}); list it instead.`,
    );
  }
  const id = ctx.rng.uuid();
  ctx.state.depositAddresses[id] = {
    id,
    balanceId,
    type,
    network: options.network,
    address: makeAddress(ctx.rng, options.network),
    label: options.label ?? null,
    createdAt: nowIso(ctx),
  };
  return depositAddressView(ctx.state.depositAddresses[id]!);
}

/** The verifications of the application's users (optionally one user's), oldest first, one page. */
export function listVerifications(
  ctx: DomainContext,
  userId?: string,
  query: PageQuery = {},
  operation = 'listDepositVerifications',
): DepositVerificationList {
  const verifications =
    userId === undefined ? Object.values(ctx.state.verifications) : verificationsOfUser(ctx, userId);
  return paginate(ctx, `${operation}/${userId ?? ''}`, verifications, (v) => v.id, query, verificationView);
}

/** One app user's verifications (Wallet App), oldest first, one page; the user must exist. */
export function listAppVerifications(
  ctx: DomainContext,
  userUuid: string,
  query: PageQuery = {},
): DepositVerificationList {
  findUser(ctx, userUuid);
  return listVerifications(ctx, userUuid, query, 'listAppDepositVerifications');
}

/** Approves a PENDING_APPROVAL verification with verification data; the balance is then credited, once. */
export function approveVerification(
  ctx: DomainContext,
  id: string,
  data: VerificationData,
  operation: string,
): DepositVerification {
  const verification = findVerification(ctx, id);
  const next = transition(verificationMachine, verification.status, 'approveDepositVerification', { operation });
  verification.verificationData = { ...data };
  credit(ctx, verification);
  verification.status = next;
  return verificationView(verification);
}

/** Credits a verification's deposit to its balance. Only ever called on the way into CREDITED. */
function credit(ctx: DomainContext, v: VerificationRecord): void {
  const balance = findBalance(ctx, v.balanceId);
  const type = findDepositType(ctx, v.type);
  const amount = Number(creditedMinorUnits(v.amount, type.rate));
  payIn(balance, amount);
  balance.updatedAt = nowIso(ctx);
  v.creditedAmount = { amount, currency: balance.currency };
  v.creditedAt = nowIso(ctx);
  emit(ctx, {
    type: 'balance.credited',
    at: nowIso(ctx),
    balanceId: balance.id,
    userId: balance.userId,
    amount: { ...v.creditedAmount },
    verificationId: v.id,
  });
}

/** A crypto deposit arriving (control API). */
export interface IncomingDeposit {
  /** A user's balanceId, or a corporate's balanceId (then the deposit is a top-up). */
  balanceId: string;
  /** The deposit type (asset ticker). */
  type: string;
  /** Decimal string, at least the type's minimum. */
  amount: string;
  /** User balances only: wait for `approveDepositVerification` before crediting. Default false. */
  requiresVerification?: boolean;
  /** Defaults to the address's network. */
  network?: string;
}

/** What an incoming deposit became: a verification of a user's deposit, or a corporate top-up. */
export type IncomingDepositResult =
  | { kind: 'verification'; verification: DepositVerification }
  | { kind: 'topUp'; topUp: TopUp };

/**
 * A deposit arrives at the address of a balance and type. A user's deposit makes a verification, CREDITED at
 * once or PENDING_APPROVAL when it needs verification data; a deposit to a corporate's balance is a top-up that
 * raises the corporate balance.
 */
export function incomingDeposit(ctx: DomainContext, d: IncomingDeposit): IncomingDepositResult {
  const type = findDepositType(ctx, d.type);
  if (compareDecimal(d.amount, type.minimumAmount) < 0) {
    throw unprocessable('AMOUNT_BELOW_MINIMUM', `The minimum ${type.type} deposit is ${type.minimumAmount}.`);
  }
  if (d.network !== undefined && !type.networks.includes(d.network)) {
    throw unprocessable(
      'NETWORK_NOT_SUPPORTED',
      `${type.type} arrives on ${type.networks.join(', ')}, not ${d.network}.`,
    );
  }
  const credited = creditedMinorUnits(d.amount, type.rate);
  const balance = ctx.state.balances[d.balanceId];
  if (balance) return userDeposit(ctx, d, type, balance, credited);
  return corporateTopUp(ctx, d, type, credited);
}

type DepositType = ReturnType<typeof findDepositType>;

/** A deposit to a user's balance: a verification, CREDITED at once or PENDING_APPROVAL. */
function userDeposit(
  ctx: DomainContext,
  d: IncomingDeposit,
  type: DepositType,
  balance: BalanceRecord,
  credited: bigint,
): IncomingDepositResult {
  const address = addressesOf(ctx, balance.id, type.type)[0];
  if (!address) {
    throw new ProblemError(
      'DEPOSIT_ADDRESS_MISSING',
      `Balance ${balance.id} has no ${type.type} address to receive a deposit; create one first.`,
    );
  }
  if (d.network !== undefined && d.network !== address.network) {
    throw unprocessable(
      'NETWORK_NOT_SUPPORTED',
      `The ${type.type} address of balance ${balance.id} is on ${address.network}, not ${d.network}.`,
    );
  }
  const pending = verificationsOfBalance(ctx, balance.id)
    .filter((v) => v.status === 'PENDING_APPROVAL')
    .reduce((sum, v) => sum + creditedMinorUnits(v.amount, findDepositType(ctx, v.type).rate), 0n);
  assertWithinMoney(BigInt(balance.available) + pending + credited);
  const requiresVerification = d.requiresVerification ?? false;
  const verification: VerificationRecord = {
    id: ctx.rng.uuid(),
    userId: balance.userId,
    balanceId: balance.id,
    depositAddressId: address.id,
    type: type.type,
    network: address.network,
    amount: d.amount,
    status: initialStatus(verificationMachine, 'incomingDeposit', { requiresVerification }),
    verificationRequired: requiresVerification,
    verificationData: null,
    creditedAmount: null,
    createdAt: nowIso(ctx),
    creditedAt: null,
  };
  ctx.state.verifications[verification.id] = verification;
  if (verification.status === 'CREDITED') credit(ctx, verification);
  else
    emit(ctx, {
      type: 'deposit.verificationPending',
      at: verification.createdAt,
      verificationId: verification.id,
      balanceId: balance.id,
      userId: balance.userId,
    });
  return { kind: 'verification', verification: verificationView(verification) };
}

/** A deposit to a corporate's balance: a COMPLETED top-up that raises it. */
function corporateTopUp(
  ctx: DomainContext,
  d: IncomingDeposit,
  type: DepositType,
  credited: bigint,
): IncomingDepositResult {
  const corporate = corporateByBalanceId(ctx, d.balanceId);
  if (!corporate) throw notFound('balance', d.balanceId);
  const address = corporateDepositAddressesOf(ctx, corporate.corporateUuid).find(
    (a) => a.type === type.type && (d.network === undefined || a.network === d.network),
  );
  if (!address) {
    throw new ProblemError(
      'DEPOSIT_ADDRESS_MISSING',
      `Corporate ${corporate.corporateUuid} has no ${type.type} address${d.network ? ` on ${d.network}` : ''}.`,
    );
  }
  assertWithinMoney(BigInt(corporate.available) + credited);
  assertWithinMoney(BigInt(corporate.funded) + credited);
  const amount: Money = { amount: Number(credited), currency: corporate.currency };
  payIn(corporate, amount.amount);
  corporate.funded += amount.amount;
  const id = ctx.rng.uuid();
  ctx.state.topUps[id] = {
    id,
    corporateUuid: corporate.corporateUuid,
    depositAddressId: address.id,
    type: type.type,
    network: address.network,
    cryptoAmount: d.amount,
    amount,
    status: 'COMPLETED',
    createdAt: nowIso(ctx),
  };
  emit(ctx, {
    type: 'topUp.completed',
    at: nowIso(ctx),
    corporateUuid: corporate.corporateUuid,
    topUpId: id,
    amount: { ...amount },
  });
  return { kind: 'topUp', topUp: topUpView(ctx.state.topUps[id]!) };
}

function assertWithinMoney(total: bigint): void {
  if (total > BigInt(MAX_MONEY)) {
    throw unprocessable(
      'AMOUNT_TOO_LARGE',
      `The deposit would take the balance above ${MAX_MONEY} minor units, the most a Money amount holds.`,
    );
  }
}
