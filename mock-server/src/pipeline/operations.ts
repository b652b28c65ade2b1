/**
 * The 32 operations of the spec as the mock serves them: method, path, success status and schemas come from the
 * generated operation table (`card-issuing-sdk/server`, made from the spec by `npm run generate`); this module
 * adds only what each one does in the domain. `runners` is keyed by every operationId and typed by the generated
 * schemas, so a missing operation, a new one, or a result the spec does not allow fails to compile.
 * @module
 */
import type * as z from 'zod';
import type { CardDetails } from 'card-issuing-sdk';
import { schemas as g } from 'card-issuing-sdk/schemas';
import { encryptCardDetails, operationTable, type OperationId, type OperationRow } from 'card-issuing-sdk/server';
import type { DomainContext } from '../domain/context';
import { ProblemError } from '../domain/errors';
import { business, cards, deposits, users } from '../domain';

type Row<K extends OperationId> = Extract<OperationRow, { operationId: K }>;
type Schemas = typeof g;
type Part<K extends OperationId, P extends string> = Row<K>['schemas'] extends { readonly [Q in P]: infer N }
  ? N extends keyof Schemas
    ? Schemas[N] extends z.core.$ZodType
      ? z.output<Schemas[N]>
      : never
    : never
  : undefined;

/** The parsed inputs of a request of operation `K`. */
export interface OperationInput<K extends OperationId = OperationId> {
  path: Part<K, 'path'>;
  query: Part<K, 'query'>;
  body: Part<K, 'body'>;
}

// A runner's result is a promise only for the card-details GETs (encryption is async); never for a POST.
type Runners = {
  [K in OperationId]: (
    ctx: DomainContext,
    input: OperationInput<K>,
  ) => z.input<Schemas[Row<K>['schemas']['response']]> | Promise<z.input<Schemas[Row<K>['schemas']['response']]>>;
};

/** One operation of the spec as the mock serves it. */
export interface Operation {
  operationId: OperationId;
  method: 'GET' | 'POST';
  /** The spec's path, `{param}` style. */
  path: string;
  /** The success status. */
  status: number;
  schemas: {
    path?: z.core.$ZodType;
    query?: z.core.$ZodType;
    headers?: z.core.$ZodType;
    body?: z.core.$ZodType;
    response: z.core.$ZodType;
  };
  run(ctx: DomainContext, input: { path: unknown; query: unknown; body: unknown }): unknown;
}

/** Encrypts card details to the caller's key (Web Crypto, so async); a key that is not usable is 400 PUBLIC_KEY_INVALID. */
export async function encryptDetails(details: CardDetails, publicKey: string): Promise<{ encryptedDetails: string }> {
  try {
    return { encryptedDetails: await encryptCardDetails(details, publicKey) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'PUBLIC_KEY_INVALID') {
      throw new ProblemError(
        'PUBLIC_KEY_INVALID',
        'publicKey must be the base64url DER SubjectPublicKeyInfo of an RSA key of at least 2048 bits.',
      );
    }
    throw error;
  }
}

const runners: Runners = {
  // ------------------------------------------------------------ Server2Server
  createUser: (ctx, { body }) => users.createUser(ctx, body),
  getUser: (ctx, { path }) => users.getUser(ctx, path.userId),
  signUserConsent: (ctx, { path }) => users.signConsent(ctx, path.userId, path.consentId),
  listCardConfigs: (ctx, { path, query }) => users.listCardConfigs(ctx, path.userId, query),
  requestEmailOtp: (ctx, { path }) => users.requestEmailOtp(ctx, path.userId),
  confirmEmail: (ctx, { path, body }) => users.confirmEmail(ctx, path.userId, body.code),
  createCard: (ctx, { path, body }) => cards.createCard(ctx, path.userId, body),
  chargeDraft: (ctx, { path }) => cards.chargeDraft(ctx, path.cardId),
  completeDraft: (ctx, { path }) => cards.completeDraft(ctx, path.cardId),
  activateCard: (ctx, { path }) => cards.activateCard(ctx, path.cardId),
  listBalances: (ctx, { query }) => cards.listBalances(ctx, query.userId, query),
  listCards: (ctx, { query }) => cards.listCards(ctx, query.userId, query),
  getCardDetails: (ctx, { path, query }) => encryptDetails(cards.cardDetails(ctx, path.cardId), query.publicKey),
  listDepositTypes: (ctx, { path, query }) => deposits.listDepositTypes(ctx, path.balanceId, query),
  listDepositVerifications: (ctx, { query }) => deposits.listVerifications(ctx, query.userId, query),
  approveDepositVerification: (ctx, { path, body }) =>
    deposits.approveVerification(ctx, path.id, body, 'approveDepositVerification'),
  listDepositAddresses: (ctx, { path, query }) => deposits.listDepositAddresses(ctx, path.balanceId, path.type, query),
  createDepositAddress: (ctx, { path, body }) => deposits.createDepositAddress(ctx, path.balanceId, path.type, body),
  // ------------------------------------------------------------ Wallet App
  listAppDepositTypes: (ctx, { query }) => deposits.listAppDepositTypes(ctx, query.userUuid, query),
  signAppConsent: (ctx, { path, query }) => users.signConsent(ctx, query.userUuid, path.consentUuid),
  listAppDepositVerifications: (ctx, { query }) => deposits.listAppVerifications(ctx, query.userUuid, query),
  approveAppDepositVerification: (ctx, { path, body }) =>
    deposits.approveVerification(ctx, path.id, body, 'approveAppDepositVerification'),
  listAppDepositAddresses: (ctx, { path, query }) =>
    deposits.listDepositAddresses(ctx, path.balanceUuid, path.type, query, 'listAppDepositAddresses'),
  createAppDepositAddress: (ctx, { path, body }) =>
    deposits.createDepositAddress(ctx, path.balanceUuid, path.type, body),
  // ------------------------------------------------------------ Business cards
  createBusinessUser: (ctx, { body }) => business.createBusinessUser(ctx, body),
  createApproval: (ctx, { path, body }) => business.createApproval(ctx, path.corporateUuid, body),
  getApprovalCardDetails: (ctx, { path, query }) =>
    encryptDetails(business.approvalCardDetails(ctx, path.corporateUuid, path.approvalUuid), query.publicKey),
  increaseApprovalBudget: (ctx, { path, body }) => {
    const reapproval = business.increaseBudget(ctx, path.corporateUuid, path.approvalUuid, body.additionalBudget);
    return { ...reapproval, previousApprovalUuid: reapproval.previousApprovalUuid ?? path.approvalUuid };
  },
  getApproval: (ctx, { path }) => business.getApproval(ctx, path.corporateUuid, path.approvalUuid),
  listUserApprovals: (ctx, { path, query }) =>
    business.listUserApprovals(ctx, path.corporateUuid, path.userUuid, query),
  listCorporateDepositAddresses: (ctx, { path, query }) =>
    business.listCorporateDepositAddresses(ctx, path.corporateUuid, query),
  listTopUps: (ctx, { path, query }) => business.listTopUps(ctx, path.corporateUuid, query),
};

function schema(name: string | undefined): z.core.$ZodType | undefined {
  if (name === undefined) return undefined;
  const found = (g as unknown as Record<string, unknown>)[name];
  if (!found) throw new Error(`The operation table names ${name}, which the generated schemas do not have.`);
  return found as z.core.$ZodType;
}

/** Every operation: the generated table's facts with the domain's runner. */
export const operations: readonly Operation[] = operationTable.map((row): Operation => {
  const names = row.schemas as Partial<Record<'path' | 'query' | 'headers' | 'body' | 'response', string>>;
  return {
    operationId: row.operationId,
    method: row.method as 'GET' | 'POST',
    path: row.path,
    status: row.status,
    schemas: {
      ...(names.path ? { path: schema(names.path) } : {}),
      ...(names.query ? { query: schema(names.query) } : {}),
      ...(names.headers ? { headers: schema(names.headers) } : {}),
      ...(names.body ? { body: schema(names.body) } : {}),
      response: schema(names.response)!,
    },
    run: runners[row.operationId] as Operation['run'],
  };
});

/** The operation of an operationId. */
export const operationById: ReadonlyMap<string, Operation> = new Map(operations.map((o) => [o.operationId, o]));
