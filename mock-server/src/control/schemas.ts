/**
 * The bodies of the control API (contract section 7), as zod schemas: the same checks for the programmatic
 * calls and the `/__mock/` routes, and 400 VALIDATION_FAILED naming each bad field for both.
 * @module
 */
import * as z from 'zod';
import { schemas } from 'card-issuing-sdk/schemas';
import { DECLINE_REASONS } from '../domain/authorizations';
import { AUTHORIZATION_STATES, AUTHORIZATION_STEP_KINDS, FORCED_REASONS } from '../store';
import { MAX_MONEY } from '../domain/spec-bounds';

const { zCryptoAmount, zCryptoNetwork, zCurrencyCode, zDepositTypeCode, zMoney } = schemas;

/** An api key: printable ASCII without ':' (the Authorization header separates its parts with ':'). */
export const zApiKey = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x39\x3B-\x7E]+$/, 'Printable ASCII without ":"');

/**
 * The body of a route whose control function checks what the body holds (overrides, builders, scenarios, a state):
 * a JSON object, so that an array, a string, a number or null is 400 naming `body`, never read as `{}`.
 */
export const zObjectBody = z.looseObject({});

/** `POST /__mock/credentials`. */
export const zCredentialsBody = z.strictObject({ apiKey: zApiKey, apiSecret: z.string().min(1).max(256) });

/** `POST /__mock/clock/advance` (at most about 100 years at once). */
export const zClockAdvanceBody = z.strictObject({ seconds: z.number().min(0).max(3_200_000_000) });

/** `POST /__mock/kyc/{userId}`. */
export const zKycBody = z.strictObject({ status: z.enum(['PASSED', 'FAILED']) });

/** `POST /__mock/deposits/incoming`. */
export const zIncomingDepositBody = z.strictObject({
  balanceId: z.uuid(),
  type: zDepositTypeCode,
  amount: zCryptoAmount,
  requiresVerification: z.boolean().optional(),
  network: z.optional(zCryptoNetwork),
});

/** `POST /__mock/corporates/{c}/approvals/{a}/request-change` (the body is optional): a budget added, a PIN update, or both. */
export const zRequestChangeBody = z.strictObject({
  additionalBudget: z.strictObject(zMoney.shape).optional(),
  pinUpdate: z.boolean().optional(),
});

/** `POST /__mock/cards/{cardId}/refund`: a merchant's credit without a purchase (an unlinked refund). */
export const zCreditBody = z.strictObject({
  amount: z.int().min(1).max(MAX_MONEY),
  currency: zCurrencyCode,
  merchant: z.string().min(1).max(100),
});

/** `POST /__mock/cards/{cardId}/authorize`: a purchase the card network asks to authorize. */
export const zAuthorizeBody = z.strictObject({
  amount: z.int().min(1).max(MAX_MONEY),
  currency: zCurrencyCode,
  merchant: z.string().min(1).max(100),
  /** False: a hold (PENDING) to capture, increment, reverse or let expire. Default true: captured at once. */
  capture: z.boolean().optional(),
});

/** `POST /__mock/authorizations/{id}/{capture|reverse|refund}`: the amount (default: the whole hold, or all that is refundable). */
export const zAuthorizationStepBody = z.strictObject({ amount: z.int().min(1).max(MAX_MONEY).optional() });

/** `POST /__mock/authorizations/{id}/increment`: the amount to add to the hold. */
export const zAuthorizationIncrementBody = z.strictObject({ amount: z.int().min(1).max(MAX_MONEY) });

/** `GET /__mock/authorizations` and `authorizations(filter)`: the network's answer or the state now in `status`. */
export const zAuthorizationFilter = z.strictObject({
  cardId: z.uuid().optional(),
  approvalUuid: z.uuid().optional(),
  status: z.enum(['APPROVED', ...AUTHORIZATION_STATES]).optional(),
});

const minor = z.int().min(0).max(MAX_MONEY);

/** An authorization and its life: the network's answer (`status`), where it is now (`state`), its amounts and steps. */
export const zAuthorization = z.strictObject({
  id: z.uuid(),
  cardId: z.uuid(),
  approvalUuid: z.uuid().nullable(),
  balanceId: z.uuid().nullable(),
  amount: z.strictObject(zMoney.shape),
  merchant: z.string(),
  status: z.enum(['APPROVED', 'DECLINED']),
  declineReason: z.enum(DECLINE_REASONS).nullable(),
  state: z.enum(AUTHORIZATION_STATES),
  authorized: minor,
  held: minor,
  captured: minor,
  refunded: minor,
  expiresAt: z.iso.datetime().nullable(),
  steps: z.array(
    z.strictObject({
      kind: z.enum(AUTHORIZATION_STEP_KINDS),
      /** A `forcedCapture`: why the network forced it. */
      forced: z.enum(FORCED_REASONS).optional(),
      amount: minor,
      declineReason: z.enum(DECLINE_REASONS).nullable(),
      at: z.iso.datetime(),
    }),
  ),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

/** `POST /__mock/faults`: the same checks as `faults.inject` (pipeline/faults.ts). */
export { zFaultSpec as zFaultBody } from '../pipeline/faults';
