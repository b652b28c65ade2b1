/**
 * The 32 operations of the spec: method, path, success status, the generated zod schemas of their inputs and
 * response, and what they do in the domain. `run` is typed by the schemas, and its result must be the
 * generated response type, so a shape the spec does not allow fails to compile.
 * @module
 */
import type * as z from 'zod';
import * as g from 'card-issuing-sdk/internal';
import type { CardDetails } from 'card-issuing-sdk';
import { encryptCardDetails } from 'card-issuing-sdk';
import type { DomainContext } from '../domain/context';
import { ProblemError } from '../domain/errors';
import { business, cards, deposits, users } from '../domain';

/** The parsed inputs of a request. */
export interface OperationInput<P, Q, B> {
  path: P;
  query: Q;
  body: B;
}

/** One operation of the spec as the mock serves it. */
export interface Operation<P = unknown, Q = unknown, B = unknown, R = unknown> {
  operationId: string;
  method: 'GET' | 'POST';
  /** The spec's path, `{param}` style. */
  path: string;
  /** The success status (201 for a POST that creates, else 200). */
  status: 200 | 201;
  schemas: {
    path?: z.ZodType<P>;
    query?: z.ZodType<Q>;
    headers?: z.ZodType;
    body?: z.ZodType<B>;
    response: z.ZodType<R>;
  };
  run(ctx: DomainContext, input: OperationInput<P, Q, B>): R;
}

// Inference ties run's parameter and result to the schemas; the table stores operations type-erased.
function op<P = undefined, Q = undefined, B = undefined, R = unknown>(o: Operation<P, Q, B, R>): Operation {
  return o as unknown as Operation;
}

/** Encrypts card details to the caller's key; a key that is not usable is 400 PUBLIC_KEY_INVALID. */
function encrypt(details: CardDetails, publicKey: string): { encryptedDetails: string } {
  try {
    return { encryptedDetails: encryptCardDetails(details, publicKey) };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'PUBLIC_KEY_INVALID') {
      throw new ProblemError(400, 'PUBLIC_KEY_INVALID', 'publicKey must be the base64url DER SubjectPublicKeyInfo of an RSA key of at least 2048 bits.');
    }
    throw error;
  }
}

/** Every operation, in the order their routes are matched (literal segments before parameters). */
export const operations: readonly Operation[] = [
  // ------------------------------------------------------------ Server2Server
  op({
    operationId: 'createUser', method: 'POST', path: '/s2s/users', status: 201,
    schemas: { headers: g.zCreateUserHeaders, body: g.zCreateUserBody, response: g.zCreateUserResponse },
    run: (ctx, { body }) => users.createUser(ctx, body),
  }),
  op({
    operationId: 'getUser', method: 'GET', path: '/s2s/users/{userId}', status: 200,
    schemas: { path: g.zGetUserPath, response: g.zGetUserResponse },
    run: (ctx, { path }) => users.getUser(ctx, path.userId),
  }),
  op({
    operationId: 'signUserConsent', method: 'POST', path: '/s2s/users/{userId}/consents/{consentId}/sign', status: 200,
    schemas: { path: g.zSignUserConsentPath, headers: g.zSignUserConsentHeaders, response: g.zSignUserConsentResponse },
    run: (ctx, { path }) => users.signConsent(ctx, path.userId, path.consentId),
  }),
  op({
    operationId: 'listCardConfigs', method: 'GET', path: '/s2s/users/{userId}/cards/configs', status: 200,
    schemas: { path: g.zListCardConfigsPath, query: g.zListCardConfigsQuery, response: g.zListCardConfigsResponse },
    run: (ctx, { path, query }) => users.listCardConfigs(ctx, path.userId, query),
  }),
  op({
    operationId: 'requestEmailOtp', method: 'POST', path: '/s2s/users/{userId}/email/otp', status: 200,
    schemas: { path: g.zRequestEmailOtpPath, headers: g.zRequestEmailOtpHeaders, response: g.zRequestEmailOtpResponse },
    run: (ctx, { path }) => users.requestEmailOtp(ctx, path.userId),
  }),
  op({
    operationId: 'confirmEmail', method: 'POST', path: '/s2s/users/{userId}/email/confirm', status: 200,
    schemas: { path: g.zConfirmEmailPath, headers: g.zConfirmEmailHeaders, body: g.zConfirmEmailBody, response: g.zConfirmEmailResponse },
    run: (ctx, { path, body }) => users.confirmEmail(ctx, path.userId, body.code),
  }),
  op({
    operationId: 'createCard', method: 'POST', path: '/s2s/users/{userId}/cards', status: 201,
    schemas: { path: g.zCreateCardPath, headers: g.zCreateCardHeaders, body: g.zCreateCardBody, response: g.zCreateCardResponse },
    run: (ctx, { path, body }) => cards.createCard(ctx, path.userId, body),
  }),
  op({
    operationId: 'chargeDraft', method: 'POST', path: '/s2s/cards/{cardId}/charge-draft', status: 200,
    schemas: { path: g.zChargeDraftPath, headers: g.zChargeDraftHeaders, response: g.zChargeDraftResponse },
    run: (ctx, { path }) => cards.chargeDraft(ctx, path.cardId),
  }),
  op({
    operationId: 'completeDraft', method: 'POST', path: '/s2s/cards/{cardId}/complete-draft', status: 200,
    schemas: { path: g.zCompleteDraftPath, headers: g.zCompleteDraftHeaders, response: g.zCompleteDraftResponse },
    run: (ctx, { path }) => cards.completeDraft(ctx, path.cardId),
  }),
  op({
    operationId: 'activateCard', method: 'POST', path: '/s2s/cards/{cardId}/activation', status: 200,
    schemas: { path: g.zActivateCardPath, headers: g.zActivateCardHeaders, response: g.zActivateCardResponse },
    run: (ctx, { path }) => cards.activateCard(ctx, path.cardId),
  }),
  op({
    operationId: 'listBalances', method: 'GET', path: '/s2s/balances', status: 200,
    schemas: { query: g.zListBalancesQuery, response: g.zListBalancesResponse },
    run: (ctx, { query }) => cards.listBalances(ctx, query.userId, query),
  }),
  op({
    operationId: 'listCards', method: 'GET', path: '/s2s/cards', status: 200,
    schemas: { query: g.zListCardsQuery, response: g.zListCardsResponse },
    run: (ctx, { query }) => cards.listCards(ctx, query.userId, query),
  }),
  op({
    operationId: 'getCardDetails', method: 'GET', path: '/s2s/cards/{cardId}/details', status: 200,
    schemas: { path: g.zGetCardDetailsPath, query: g.zGetCardDetailsQuery, response: g.zGetCardDetailsResponse },
    run: (ctx, { path, query }) => encrypt(cards.cardDetails(ctx, path.cardId), query.publicKey),
  }),
  op({
    operationId: 'listDepositTypes', method: 'GET', path: '/s2s/deposits/{balanceId}/types', status: 200,
    schemas: { path: g.zListDepositTypesPath, query: g.zListDepositTypesQuery, response: g.zListDepositTypesResponse },
    run: (ctx, { path, query }) => deposits.listDepositTypes(ctx, path.balanceId, query),
  }),
  op({
    operationId: 'listDepositVerifications', method: 'GET', path: '/s2s/deposits/verifications', status: 200,
    schemas: { query: g.zListDepositVerificationsQuery, response: g.zListDepositVerificationsResponse },
    run: (ctx, { query }) => deposits.listVerifications(ctx, query.userId, query),
  }),
  op({
    operationId: 'approveDepositVerification', method: 'POST', path: '/s2s/deposits/verifications/{id}/approval', status: 200,
    schemas: {
      path: g.zApproveDepositVerificationPath, headers: g.zApproveDepositVerificationHeaders, body: g.zApproveDepositVerificationBody,
      response: g.zApproveDepositVerificationResponse,
    },
    run: (ctx, { path, body }) => deposits.approveVerification(ctx, path.id, body, 'approveDepositVerification'),
  }),
  op({
    operationId: 'listDepositAddresses', method: 'GET', path: '/s2s/deposits/{balanceId}/{type}', status: 200,
    schemas: { path: g.zListDepositAddressesPath, query: g.zListDepositAddressesQuery, response: g.zListDepositAddressesResponse },
    run: (ctx, { path, query }) => deposits.listDepositAddresses(ctx, path.balanceId, path.type, query),
  }),
  op({
    operationId: 'createDepositAddress', method: 'POST', path: '/s2s/deposits/{balanceId}/{type}', status: 201,
    schemas: {
      path: g.zCreateDepositAddressPath, headers: g.zCreateDepositAddressHeaders, body: g.zCreateDepositAddressBody,
      response: g.zCreateDepositAddressResponse,
    },
    run: (ctx, { path, body }) => deposits.createDepositAddress(ctx, path.balanceId, path.type, body),
  }),
  // ------------------------------------------------------------ Wallet App
  op({
    operationId: 'listAppDepositTypes', method: 'GET', path: '/app/deposits/types', status: 200,
    schemas: { query: g.zListAppDepositTypesQuery, response: g.zListAppDepositTypesResponse },
    run: (ctx, { query }) => deposits.listAppDepositTypes(ctx, query.userUuid, query),
  }),
  op({
    operationId: 'signAppConsent', method: 'POST', path: '/app/deposits/consents/{consentUuid}/sign', status: 200,
    schemas: { path: g.zSignAppConsentPath, query: g.zSignAppConsentQuery, headers: g.zSignAppConsentHeaders, response: g.zSignAppConsentResponse },
    run: (ctx, { path, query }) => users.signConsent(ctx, query.userUuid, path.consentUuid),
  }),
  op({
    operationId: 'listAppDepositVerifications', method: 'GET', path: '/app/deposits/verifications', status: 200,
    schemas: { query: g.zListAppDepositVerificationsQuery, response: g.zListAppDepositVerificationsResponse },
    run: (ctx, { query }) => deposits.listAppVerifications(ctx, query.userUuid, query),
  }),
  op({
    operationId: 'approveAppDepositVerification', method: 'POST', path: '/app/deposits/verifications/{id}/approval', status: 200,
    schemas: {
      path: g.zApproveAppDepositVerificationPath, headers: g.zApproveAppDepositVerificationHeaders, body: g.zApproveAppDepositVerificationBody,
      response: g.zApproveAppDepositVerificationResponse,
    },
    run: (ctx, { path, body }) => deposits.approveVerification(ctx, path.id, body, 'approveAppDepositVerification'),
  }),
  op({
    operationId: 'listAppDepositAddresses', method: 'GET', path: '/app/deposits/{balanceUuid}/{type}', status: 200,
    schemas: { path: g.zListAppDepositAddressesPath, query: g.zListAppDepositAddressesQuery, response: g.zListAppDepositAddressesResponse },
    run: (ctx, { path, query }) => deposits.listDepositAddresses(ctx, path.balanceUuid, path.type, query, 'listAppDepositAddresses'),
  }),
  op({
    operationId: 'createAppDepositAddress', method: 'POST', path: '/app/deposits/{balanceUuid}/{type}', status: 201,
    schemas: {
      path: g.zCreateAppDepositAddressPath, headers: g.zCreateAppDepositAddressHeaders, body: g.zCreateAppDepositAddressBody,
      response: g.zCreateAppDepositAddressResponse,
    },
    run: (ctx, { path, body }) => deposits.createDepositAddress(ctx, path.balanceUuid, path.type, body),
  }),
  // ------------------------------------------------------------ Business cards
  op({
    operationId: 'createBusinessUser', method: 'POST', path: '/corporates/users', status: 201,
    schemas: { headers: g.zCreateBusinessUserHeaders, body: g.zCreateBusinessUserBody, response: g.zCreateBusinessUserResponse },
    run: (ctx, { body }) => business.createBusinessUser(ctx, body),
  }),
  op({
    operationId: 'createApproval', method: 'POST', path: '/corporates/corporates/{corporateUuid}/approvals', status: 201,
    schemas: { path: g.zCreateApprovalPath, headers: g.zCreateApprovalHeaders, body: g.zCreateApprovalBody, response: g.zCreateApprovalResponse },
    run: (ctx, { path, body }) => business.createApproval(ctx, path.corporateUuid, body),
  }),
  op({
    operationId: 'getApprovalCardDetails', method: 'GET', path: '/corporates/{corporateUuid}/approvals/{approvalUuid}/details', status: 200,
    schemas: { path: g.zGetApprovalCardDetailsPath, query: g.zGetApprovalCardDetailsQuery, response: g.zGetApprovalCardDetailsResponse },
    run: (ctx, { path, query }) => encrypt(business.approvalCardDetails(ctx, path.corporateUuid, path.approvalUuid), query.publicKey),
  }),
  op({
    operationId: 'increaseApprovalBudget', method: 'POST', path: '/corporates/{corporateUuid}/approvals/{approvalUuid}/increase-budget', status: 201,
    schemas: {
      path: g.zIncreaseApprovalBudgetPath, headers: g.zIncreaseApprovalBudgetHeaders, body: g.zIncreaseApprovalBudgetBody,
      response: g.zIncreaseApprovalBudgetResponse,
    },
    run: (ctx, { path, body }) => business.increaseBudget(ctx, path.corporateUuid, path.approvalUuid, body.additionalBudget),
  }),
  op({
    operationId: 'getApproval', method: 'GET', path: '/corporates/{corporateUuid}/approvals/{approvalUuid}', status: 200,
    schemas: { path: g.zGetApprovalPath, response: g.zGetApprovalResponse },
    run: (ctx, { path }) => business.getApproval(ctx, path.corporateUuid, path.approvalUuid),
  }),
  op({
    operationId: 'listUserApprovals', method: 'GET', path: '/corporates/{corporateUuid}/users/{userUuid}/approvals', status: 200,
    schemas: { path: g.zListUserApprovalsPath, query: g.zListUserApprovalsQuery, response: g.zListUserApprovalsResponse },
    run: (ctx, { path, query }) => business.listUserApprovals(ctx, path.corporateUuid, path.userUuid, query),
  }),
  op({
    operationId: 'listCorporateDepositAddresses', method: 'GET', path: '/corporates/{corporateUuid}/deposits', status: 200,
    schemas: { path: g.zListCorporateDepositAddressesPath, query: g.zListCorporateDepositAddressesQuery, response: g.zListCorporateDepositAddressesResponse },
    run: (ctx, { path, query }) => business.listCorporateDepositAddresses(ctx, path.corporateUuid, query),
  }),
  op({
    operationId: 'listTopUps', method: 'GET', path: '/corporates/{corporateUuid}/top-ups', status: 200,
    schemas: { path: g.zListTopUpsPath, query: g.zListTopUpsQuery, response: g.zListTopUpsResponse },
    run: (ctx, { path, query }) => business.listTopUps(ctx, path.corporateUuid, query),
  }),
];
