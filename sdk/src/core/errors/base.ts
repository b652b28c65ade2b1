/**
 * The base of every error the SDK throws (contract section 4): {@link CardIssuingError}, its brand, and the codes
 * it carries. The subclasses, and `isCardIssuingError` that narrows by code to them, are in `./classes`.
 *
 * No error ever holds the api secret, an `Authorization` header, a signature or card data: not in `message`,
 * not in `toJSON()`, not in a `cause` (HTTP errors have none; a network error's cause is the raw transport error,
 * never ky's error, which holds the signed request).
 * @module
 */
import type { Problem, ProblemCode } from '../../../generated/types.gen';
import { redactDeep } from './redaction';

/** Codes a flow helper stops with when the flow itself refuses to go on (beside the server's codes it repeats). */
export type FlowErrorCode =
  | 'CALLBACK_FAILED'
  | 'CONSENTS_DECLINED'
  | 'CONFIG_NOT_FOUND'
  | 'CARD_NOT_ISSUED'
  | 'BALANCE_NOT_FOUND'
  | 'DEPOSIT_TYPE_NOT_FOUND'
  | 'VERIFICATION_NOT_FOUND';

/** Codes of errors the SDK raises itself, with no problem+json from the server to name them. */
export type ClientErrorCode =
  | 'NETWORK_ERROR'
  | 'TIMEOUT'
  | 'DEADLINE_EXCEEDED'
  | 'REDIRECT_NOT_FOLLOWED'
  | 'RESPONSE_VALIDATION_FAILED'
  | 'PRIVATE_KEY_INVALID'
  | 'CARD_DETAILS_DECRYPTION_FAILED'
  | 'CARD_DETAILS_INVALID'
  | 'NO_NEXT_PAGE'
  | 'RESPONSE_TOO_LARGE'
  | FlowErrorCode
  /** A response that is no problem+json of this spec version (a proxy's page, or a code a newer server added). */
  | `HTTP_${number}`;

/**
 * Every `code` an SDK error can carry: the spec's `ProblemCode` set (generated) and the SDK's own codes, which an
 * editor completes, plus any other string: the spec tells clients to tolerate codes a newer service adds, and such
 * a code is kept as it came.
 */
export type ErrorCode = ProblemCode | ClientErrorCode | (string & {});

/** The codes this SDK version knows (without the open end of {@link ErrorCode}). */
export type KnownErrorCode = ProblemCode | ClientErrorCode;

/** One bad field of a request (or, for {@link ResponseValidationError}, of a response). */
export interface FieldError {
  /** Where the bad value is, e.g. `body.email` (request) or `items[0].status` (response). */
  path: string;
  /** What is wrong with it (never the value itself). */
  message: string;
}

/** What a {@link CardIssuingError} is made from. */
export interface CardIssuingErrorInit {
  /** The message; defaults to one built from `detail`, `code`, `status` and `requestId`. */
  message?: string;
  /** The HTTP status; undefined when no response was received (network, timeout, client-side checks). */
  status?: number | undefined;
  code: ErrorCode;
  detail?: string | undefined;
  errors?: readonly FieldError[] | undefined;
  requestId?: string | undefined;
  type?: string | undefined;
  title?: string | undefined;
  /** The problem+json body as received (validated), with extension members such as `currentStatus`. */
  problem?: Problem | undefined;
  cause?: unknown;
  /**
   * Texts that must never show (the api secret, the Authorization header): replaced by `[REDACTED]` in every text
   * of the error (message, detail, title, errors, request id, problem) before it is stored, so that neither
   * `message`, `toJSON()` nor `inspect` can show what a hostile server echoed.
   */
  redact?: readonly string[] | undefined;
}

/** The plain-object form of an error, as `JSON.stringify` and loggers see it. */
export interface CardIssuingErrorJSON {
  name: string;
  message: string;
  status: number | undefined;
  code: ErrorCode;
  detail: string;
  errors: FieldError[];
  requestId: string | undefined;
  type: string | undefined;
  title: string | undefined;
  [extra: string]: unknown;
}

/**
 * The brand every {@link CardIssuingError} carries on its prototype chain. `Symbol.for` makes it the same symbol in
 * every copy of the SDK and every realm (ESM and CommonJS builds loaded side by side, a vm context, an iframe), where
 * the classes themselves differ and `instanceof` says false.
 */
const CARD_ISSUING_ERROR = Symbol.for('card-issuing-sdk.CardIssuingError');

/** True when `value` carries the brand of a {@link CardIssuingError} of any copy of the SDK (see `isCardIssuingError`). */
export function hasErrorBrand(value: unknown): value is CardIssuingError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [CARD_ISSUING_ERROR]?: unknown })[CARD_ISSUING_ERROR] === true
  );
}

/**
 * The base of every error the SDK throws. Branch on the subclass (`instanceof NotFoundError`) or on `code`; where
 * the SDK may be loaded twice (ESM and CommonJS in one process), use `isCardIssuingError` for the base.
 *
 * @example
 * ```ts
 * try { await client.s2s.cards.chargeDraft(cardId); }
 * catch (error) {
 *   if (error instanceof BusinessRuleError && error.code === 'INSUFFICIENT_FUNDS') { ... }
 *   else throw error;
 * }
 * ```
 */
export class CardIssuingError extends Error {
  override name = 'CardIssuingError';
  /** The HTTP status, or undefined when no response was received. */
  readonly status: number | undefined;
  /** The stable error code (problem+json `code`, or the SDK's own such as `NETWORK_ERROR`). */
  readonly code: ErrorCode;
  /** What went wrong, for people. */
  readonly detail: string;
  /** For validation errors, one entry per bad field; otherwise empty. */
  readonly errors: readonly FieldError[];
  /** The request id (`X-Request-Id`); quote it when asking for support. */
  readonly requestId: string | undefined;
  /** The problem `type` URI. */
  readonly type: string | undefined;
  /** The problem `title`. */
  readonly title: string | undefined;
  /** The problem+json body as received (validated with the generated `zProblem`), when there was one. */
  readonly problem: Problem | undefined;

  constructor(init: CardIssuingErrorInit) {
    const clean = <T>(value: T): T => redactDeep(value, init.redact);
    const detail = clean(init.detail ?? init.title ?? init.code);
    const code = clean(init.code);
    const requestId = clean(init.requestId);
    super(
      clean(init.message) ?? formatMessage(detail, code, init.status, requestId),
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.status = init.status;
    this.code = code;
    this.detail = detail;
    this.errors = Object.freeze(clean([...(init.errors ?? [])]));
    this.requestId = requestId;
    this.type = clean(init.type);
    this.title = clean(init.title);
    this.problem = clean(init.problem);
  }

  /** The fields that matter, for logs and `JSON.stringify`. */
  toJSON(): CardIssuingErrorJSON {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      detail: this.detail,
      errors: [...this.errors],
      requestId: this.requestId,
      type: this.type,
      title: this.title,
    };
  }
}
// On the prototype, not the instance: every subclass inherits it, and neither toJSON() nor a spread copies it.
Object.defineProperty(CardIssuingError.prototype, CARD_ISSUING_ERROR, { value: true });

function formatMessage(
  detail: string,
  code: string,
  status: number | undefined,
  requestId: string | undefined,
): string {
  const facts = [
    code,
    status === undefined ? undefined : `HTTP ${status}`,
    requestId === undefined ? undefined : `request ${requestId}`,
  ];
  return `${detail} (${facts.filter(Boolean).join(', ')})`;
}
