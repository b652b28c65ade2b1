/**
 * Type tests of the errors (as msw's *.test-d.ts), checked by `npm run typecheck`: `code` completes the known codes and
 * takes any other string; `isCardIssuingError(e, code)` narrows to the class that code comes with, with its fields;
 * `currentStatus` and `operation` carry the spec's generated types.
 */
import { expectTypeOf } from 'vitest';
import {
  type ApprovalStatus,
  type BusinessRuleError,
  type CardStatus,
  type CardIssuingError,
  type ConflictError,
  type DeadlineExceededError,
  type ErrorCode,
  type FlowError,
  type KnownErrorCode,
  type NetworkError,
  type RateLimitError,
  type RedirectError,
  type ResourceStatus,
  type ValidationError,
  isCardIssuingError,
} from 'card-issuing-sdk';
import type { OperationId } from 'card-issuing-sdk/server';

declare const error: unknown;
declare const base: CardIssuingError;

// ------------------------------------------------------------------ code: the known codes, and any newer one

expectTypeOf(base.code).toEqualTypeOf<ErrorCode>();
expectTypeOf<'INVALID_TRANSITION'>().toExtend<ErrorCode>();
expectTypeOf<'NETWORK_ERROR'>().toExtend<ErrorCode>();
expectTypeOf<'A_CODE_A_NEWER_SERVICE_ADDED'>().toExtend<ErrorCode>(); // accepted as it came
expectTypeOf<'INVALID_TRANSITION'>().toExtend<KnownErrorCode>();
// @ts-expect-error a misspelt code is not a known code
isCardIssuingError(error, 'INVALID_TRANSITON');

// ------------------------------------------------------------------ narrowing by code

if (isCardIssuingError(error, 'INVALID_TRANSITION')) {
  expectTypeOf(error).toExtend<ConflictError>();
  expectTypeOf(error.code).toEqualTypeOf<'INVALID_TRANSITION'>();
  expectTypeOf(error.currentStatus).toEqualTypeOf<ResourceStatus | (string & {}) | undefined>();
  expectTypeOf(error.operation).toEqualTypeOf<OperationId | (string & {}) | undefined>();
}
if (isCardIssuingError(error, 'BUDGET_OUT_OF_BOUNDS')) {
  expectTypeOf(error).toExtend<BusinessRuleError>();
  // @ts-expect-error a 422 has no currentStatus (only a 409's ConflictError does)
  error.currentStatus;
}
if (isCardIssuingError(error, 'RATE_LIMITED')) expectTypeOf(error.retryAfter).toEqualTypeOf<number | undefined>();
if (isCardIssuingError(error, 'VALIDATION_FAILED')) expectTypeOf(error).toExtend<ValidationError>();
if (isCardIssuingError(error, 'NETWORK_ERROR')) expectTypeOf(error).toExtend<NetworkError>();
if (isCardIssuingError(error, 'DEADLINE_EXCEEDED')) expectTypeOf(error.deadlineMs).toEqualTypeOf<number>();
if (isCardIssuingError(error, 'REDIRECT_NOT_FOLLOWED')) {
  expectTypeOf(error).toExtend<RedirectError>();
  expectTypeOf(error.location).toEqualTypeOf<string | undefined>();
}
if (isCardIssuingError(error, 'CONSENTS_DECLINED')) expectTypeOf(error).toExtend<FlowError>();
if (isCardIssuingError(error, 'TIMEOUT')) {
  // @ts-expect-error a plain timeout is no DeadlineExceededError
  expectTypeOf(error).toExtend<DeadlineExceededError>();
}
// Without a code: the base class.
if (isCardIssuingError(error)) expectTypeOf(error).toEqualTypeOf<CardIssuingError>();

// ------------------------------------------------------------------ the spec's enums on status fields

expectTypeOf<CardStatus>().toExtend<ResourceStatus>();
expectTypeOf<ApprovalStatus>().toExtend<ResourceStatus>();
expectTypeOf<'CANCELED'>().toExtend<ResourceStatus>();
declare const conflict: ConflictError;
expectTypeOf(conflict.currentStatus).toEqualTypeOf<ResourceStatus | (string & {}) | undefined>();
// @ts-expect-error 'CANCELLED' (two Ls) is no status of the spec
const misspelt: ResourceStatus = 'CANCELLED';
void misspelt;
declare const limited: RateLimitError;
expectTypeOf(limited.status).toEqualTypeOf<number | undefined>();
