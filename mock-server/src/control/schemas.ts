/**
 * The bodies of the control API (contract section 7), as zod schemas: the same checks for the programmatic
 * calls and the `/__mock/` routes, and 400 VALIDATION_FAILED naming each bad field for both.
 * @module
 */
import * as z from 'zod';
import { zCryptoAmount, zCryptoNetwork, zCurrencyCode, zDepositTypeCode, zMoney } from 'card-issuing-sdk/internal';
import { DECLINE_REASONS } from '../domain/authorizations';
import { MAX_MONEY } from '../domain/spec-bounds';

/** An api key: printable ASCII without ':' (the Authorization header separates its parts with ':'). */
export const zApiKey = z.string().min(1).max(128).regex(/^[\x21-\x39\x3B-\x7E]+$/, 'Printable ASCII without ":"');

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
  network: zCryptoNetwork.optional(),
});

/** `POST /__mock/corporates/{c}/approvals/{a}/request-change` (the body is optional): a budget added, a PIN update, or both. */
export const zRequestChangeBody = z.strictObject({ additionalBudget: z.strictObject(zMoney.shape).optional(), pinUpdate: z.boolean().optional() });

/** `POST /__mock/cards/{cardId}/authorize`: a purchase the card network asks to authorize. */
export const zAuthorizeBody = z.strictObject({
  amount: z.int().min(1).max(MAX_MONEY),
  currency: zCurrencyCode,
  merchant: z.string().min(1).max(100),
});

/** What an authorization answers: APPROVED, or DECLINED with one of the decline reasons. */
export const zAuthorization = z.strictObject({
  id: z.uuid(),
  cardId: z.uuid(),
  approvalUuid: z.uuid().nullable(),
  balanceId: z.uuid().nullable(),
  amount: z.strictObject(zMoney.shape),
  merchant: z.string(),
  status: z.enum(['APPROVED', 'DECLINED']),
  declineReason: z.enum(DECLINE_REASONS).nullable(),
  createdAt: z.iso.datetime(),
});

/** `POST /__mock/faults`. */
export const zFaultBody = z.strictObject({
  method: z.string().regex(/^[A-Za-z]+$/).optional(),
  path: z.string().min(1).max(2048),
  status: z.int().optional(),
  delayMs: z.number().optional(),
  times: z.int().optional(),
});
