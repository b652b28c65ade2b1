/**
 * The kinds of {@link CardIssuingError}: one class per HTTP status family the spec uses, the SDK's own failures
 * (network, timeout, too large, invalid response) and the card-details errors. Branch on the class or on `code`.
 * @module
 */
import type { problemStatus } from '../../../generated/problems.gen';
import type {
  ApprovalStatus,
  BusinessUser,
  CardStatus,
  DepositVerification,
  Draft,
  TopUp,
  User,
} from '../../../generated/types.gen';
import type { OperationId } from '../../operation-table';
import {
  CardIssuingError,
  type CardIssuingErrorInit,
  type CardIssuingErrorJSON,
  type FieldError,
  type FlowErrorCode,
  type KnownErrorCode,
  hasErrorBrand,
} from './base';
import type { FlowError } from './flow-error';

/**
 * Every status a resource of the spec can be in (the generated enums: cards, drafts, approvals, users, deposit
 * verifications, top-ups), as a `409`'s `currentStatus` names it.
 */
export type ResourceStatus =
  | CardStatus
  | ApprovalStatus
  | Draft['status']
  | DepositVerification['status']
  | TopUp['status']
  | User['registrationStatus']
  | User['kycStatus']
  | BusinessUser['registrationStatus'];

/** 401: the request's signature was missing or refused (`AUTH_*` codes). Check the api key and secret and the clock. */
export class AuthenticationError extends CardIssuingError {
  override name = 'AuthenticationError';
}

/**
 * 400: the request is malformed or does not match the schema (`VALIDATION_FAILED` with `errors`, `MALFORMED_JSON`,
 * `PUBLIC_KEY_INVALID`). Also thrown before sending, with `status` undefined, when the SDK's own check of the
 * arguments against the spec fails (same `code` and `errors` paths as the server's).
 */
export class ValidationError extends CardIssuingError {
  override name = 'ValidationError';
}

/** 404: the resource does not exist, or belongs to another api key (`NOT_FOUND`, `ROUTE_NOT_FOUND`). */
export class NotFoundError extends CardIssuingError {
  override name = 'NotFoundError';
}

/** 409: the resource is in the wrong state for the operation (`INVALID_TRANSITION`, `DRAFT_NOT_CHARGED`, ...). */
export class ConflictError extends CardIssuingError {
  override name = 'ConflictError';
  /** The resource's current status, when the server says: one of the spec's statuses, or a newer one as it came. */
  readonly currentStatus: ResourceStatus | (string & {}) | undefined;
  /** The operation that was refused (its operationId), when the server says. */
  readonly operation: OperationId | (string & {}) | undefined;

  constructor(init: CardIssuingErrorInit) {
    super(init);
    this.currentStatus = init.problem?.currentStatus;
    this.operation = init.problem?.operation;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), currentStatus: this.currentStatus, operation: this.operation };
  }
}

/** 422: a business rule forbids the operation (`INSUFFICIENT_FUNDS`, `KYC_NOT_PASSED`, `OTP_INVALID`, ...). */
export class BusinessRuleError extends CardIssuingError {
  override name = 'BusinessRuleError';
}

/** 429: too many requests (`RATE_LIMITED`). Thrown once the SDK's own retries are used up. */
export class RateLimitError extends CardIssuingError {
  override name = 'RateLimitError';
  /** Seconds to wait before trying again (`Retry-After`), when the server said. */
  readonly retryAfter: number | undefined;

  constructor(init: CardIssuingErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}

/** 5xx: the server's fault. Thrown once the SDK's retries (for GET, and POST with an idempotency key) are used up. */
export class ServerError extends CardIssuingError {
  override name = 'ServerError';
}

/**
 * The connection failed (DNS, refused, reset, offline) before the response, or its body could not be read (then with
 * the response's `requestId`). `cause` is the transport's own error.
 */
export class NetworkError extends CardIssuingError {
  override name = 'NetworkError';
}

/**
 * The attempt did not finish within `timeoutMs`: no response headers in time, or a body that did not arrive in
 * full in time (a server that stalls after its headers). The request may or may not have been processed.
 */
export class TimeoutError extends CardIssuingError {
  override name = 'TimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number | undefined;

  constructor(init: CardIssuingErrorInit & { timeoutMs?: number | undefined }) {
    super(init);
    this.timeoutMs = init.timeoutMs;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/**
 * The call did not end within its deadline (`deadlineMs`, default 60 s, or `timeoutMs` when that is longer; code
 * `DEADLINE_EXCEEDED`): the deadline bounds the whole call, every attempt, every retry and every wait a server's
 * `Retry-After` asks for. A {@link TimeoutError}, so code that handles timeouts handles it; the request may or may
 * not have been processed. `status` and `requestId` are the last attempt's, when its response had begun to arrive
 * (headers, then a body that did not end in time), and undefined when it had not: never an earlier attempt's (the
 * 503 before a retry); the `onResponse` hook sees every attempt's.
 */
export class DeadlineExceededError extends TimeoutError {
  override name = 'DeadlineExceededError';
  /** The deadline that passed, in milliseconds. */
  readonly deadlineMs: number;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { deadlineMs: number; timeoutMs?: number | undefined }) {
    super({ ...init, code: 'DEADLINE_EXCEEDED' });
    this.deadlineMs = init.deadlineMs;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), deadlineMs: this.deadlineMs };
  }
}

/**
 * The server answered with a redirect (code `REDIRECT_NOT_FOLLOWED`), which the SDK never follows: the signature
 * covers the URL, a body must never be sent again (to another host least of all), and the API answers no redirect,
 * so one means a wrong `baseUrl` (http for https, a missing path prefix) or something in between. `location` is
 * where it pointed (absolute), when the runtime shows it (a browser hides it).
 */
export class RedirectError extends CardIssuingError {
  override name = 'RedirectError';
  /** Where the redirect pointed, as an absolute URL; undefined where the runtime hides it (browsers). */
  readonly location: string | undefined;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { location: string | undefined }) {
    super({ ...init, code: 'REDIRECT_NOT_FOLLOWED' });
    this.location = init.location;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), location: this.location };
  }
}

/**
 * A response body larger than `maxResponseBytes` (code `RESPONSE_TOO_LARGE`): reading stopped there and the
 * connection was released, so that a server sending without end cannot exhaust the client's memory.
 */
export class ResponseTooLargeError extends CardIssuingError {
  override name = 'ResponseTooLargeError';
  /** The limit that was exceeded, in bytes. */
  readonly maxResponseBytes: number;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { maxResponseBytes: number }) {
    super({ ...init, code: 'RESPONSE_TOO_LARGE' });
    this.maxResponseBytes = init.maxResponseBytes;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), maxResponseBytes: this.maxResponseBytes };
  }
}

/**
 * A successful response whose body does not match the spec's schema (code `RESPONSE_VALIDATION_FAILED`).
 * Names the operation and the path of the first mismatch (`items[0].status`); `errors` lists every mismatch.
 * Turn response validation off with `validateResponses: false` to accept such bodies as they are.
 */
export class ResponseValidationError extends CardIssuingError {
  override name = 'ResponseValidationError';
  /** The operation whose response did not match, e.g. `listCards`. */
  readonly operation: string;
  /** The path of the first mismatch, e.g. `items[0].status` (empty for the body itself). */
  readonly path: string;

  constructor(init: Omit<CardIssuingErrorInit, 'code'> & { operation: string; errors: readonly FieldError[] }) {
    const first = init.errors[0];
    const path = first?.path ?? '';
    super({
      ...init,
      code: 'RESPONSE_VALIDATION_FAILED',
      detail:
        init.detail ??
        `The response of ${init.operation} does not match the spec at ${path || '(body)'}: ${first?.message ?? 'invalid'}` +
          (init.errors.length > 1 ? ` (and ${init.errors.length - 1} more)` : ''),
    });
    this.operation = init.operation;
    this.path = path;
  }

  override toJSON(): CardIssuingErrorJSON {
    return { ...super.toJSON(), operation: this.operation, path: this.path };
  }
}

/** The base of the card-details errors (key pairs, encryption, decryption); never holds key material or card data. */
export class CardDetailsError extends CardIssuingError {
  override name = 'CardDetailsError';
}

/**
 * A public key that is malformed, not RSA, or shorter than 2048 bits (code `PUBLIC_KEY_INVALID`, the same code
 * as the server's 400).
 */
export class PublicKeyInvalidError extends CardDetailsError {
  override name = 'PublicKeyInvalidError';
  constructor(detail: string) {
    super({ code: 'PUBLIC_KEY_INVALID', detail });
  }
}

/** A private key that is malformed, not RSA, or shorter than 2048 bits (code `PRIVATE_KEY_INVALID`). */
export class PrivateKeyInvalidError extends CardDetailsError {
  override name = 'PrivateKeyInvalidError';
  constructor(detail: string) {
    super({ code: 'PRIVATE_KEY_INVALID', detail });
  }
}

/**
 * The encrypted card details could not be decrypted (code `CARD_DETAILS_DECRYPTION_FAILED`): not a JWE of the
 * agreed form, encrypted to another key, or tampered with (header, key, IV, ciphertext or tag).
 */
export class CardDetailsDecryptionError extends CardDetailsError {
  override name = 'CardDetailsDecryptionError';
  constructor(detail: string) {
    super({ code: 'CARD_DETAILS_DECRYPTION_FAILED', detail });
  }
}

/** The decrypted card details are not a valid `CardDetails` (schema or Luhn check; code `CARD_DETAILS_INVALID`). */
export class CardDetailsInvalidError extends CardDetailsError {
  override name = 'CardDetailsInvalidError';
  constructor(detail: string, errors: readonly FieldError[] = []) {
    super({ code: 'CARD_DETAILS_INVALID', detail, errors });
  }
}

/** The class of a server's problem code, by the HTTP status the spec gives it (`x-status`). */
interface ErrorByStatus {
  400: ValidationError;
  401: AuthenticationError;
  404: NotFoundError;
  409: ConflictError;
  422: BusinessRuleError;
  429: RateLimitError;
  500: ServerError;
  503: ServerError;
}

/** The class of each code the SDK raises itself. */
interface ErrorBySdkCode {
  NETWORK_ERROR: NetworkError;
  TIMEOUT: TimeoutError;
  DEADLINE_EXCEEDED: DeadlineExceededError;
  REDIRECT_NOT_FOLLOWED: RedirectError;
  RESPONSE_TOO_LARGE: ResponseTooLargeError;
  RESPONSE_VALIDATION_FAILED: ResponseValidationError;
  PUBLIC_KEY_INVALID: PublicKeyInvalidError;
  PRIVATE_KEY_INVALID: PrivateKeyInvalidError;
  CARD_DETAILS_DECRYPTION_FAILED: CardDetailsDecryptionError;
  CARD_DETAILS_INVALID: CardDetailsInvalidError;
}

type StatusOf = typeof problemStatus;

/**
 * The error a known code comes with, carrying that code: the class the spec's status gives a server's code (a `409`
 * code is a {@link ConflictError} with `currentStatus` and `operation`), the SDK's own class for its codes (a code
 * both raise, `PUBLIC_KEY_INVALID`, is either), a `FlowError` for a flow helper's own codes.
 */
export type CardIssuingErrorOf<C extends KnownErrorCode> = (
  | (C extends keyof StatusOf
      ? StatusOf[C] extends keyof ErrorByStatus
        ? ErrorByStatus[StatusOf[C]]
        : CardIssuingError
      : never)
  | (C extends keyof ErrorBySdkCode ? ErrorBySdkCode[C] : never)
  | (C extends FlowErrorCode ? FlowError : never)
  | (C extends `HTTP_${number}` | 'NO_NEXT_PAGE' ? CardIssuingError : never)
) & { readonly code: C };

/**
 * True when `value` is an error of this SDK, from any copy of it: the ESM or the CommonJS build, another realm, or
 * another installed version. Unlike `instanceof`, which is true only for the very class it names, it reads a brand
 * (`Symbol.for('card-issuing-sdk.CardIssuingError')`), as ky's type guards do.
 *
 * With a `code`, it is true only for an error of that code, and narrows to the class the code comes with, with its
 * fields (a `409` code: `currentStatus`, `operation`; `RATE_LIMITED`: `retryAfter`). A flow helper's `FlowError`
 * repeats its cause's code: it is matched by its own codes (`CONSENTS_DECLINED`, ...), and a server's code by its
 * `cause`.
 *
 * @example
 * ```ts
 * try { await client.corporates.approvals.increaseBudget(corporateUuid, approvalUuid, { additionalBudget }); }
 * catch (error) {
 *   if (isCardIssuingError(error, 'INVALID_TRANSITION')) console.log(error.currentStatus); // a ConflictError
 *   else if (isCardIssuingError(error) && error.code === 'NOT_FOUND') return undefined;
 *   else throw error;
 * }
 * ```
 */
export function isCardIssuingError(value: unknown): value is CardIssuingError;
export function isCardIssuingError<C extends KnownErrorCode>(value: unknown, code: C): value is CardIssuingErrorOf<C>;
export function isCardIssuingError(value: unknown, code?: string): boolean {
  if (!hasErrorBrand(value)) return false;
  if (code === undefined) return true;
  if (value.code !== code) return false;
  // A FlowError (from any copy: read by its fields) matches only the flow's own codes.
  const isFlow = typeof (value as { flow?: unknown }).flow === 'string' && 'step' in value;
  return !isFlow || Object.hasOwn(FLOW_CODES, code);
}

/** A flow helper's own codes (every one: the compiler checks this against `FlowErrorCode`). */
const FLOW_CODES: Record<FlowErrorCode, true> = {
  CALLBACK_FAILED: true,
  CONSENTS_DECLINED: true,
  CONFIG_NOT_FOUND: true,
  CARD_NOT_ISSUED: true,
  BALANCE_NOT_FOUND: true,
  DEPOSIT_TYPE_NOT_FOUND: true,
  VERIFICATION_NOT_FOUND: true,
};
